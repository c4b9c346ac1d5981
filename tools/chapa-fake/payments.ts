import { createDecipheriv } from 'node:crypto';
import type { ChapaFake, FakeAnswer } from './core';

/** Chapa's accept-payment side: hosted checkout (initialize, page, verify), direct charge and its authorization. */

export interface FakeTransaction {
  txRef: string;
  reference: string;
  kind: 'hosted' | 'charge';
  /** Exactly as the merchant sent it (Chapa echoes currency units as text or number). */
  amount: string;
  currency: string;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  method: string | null;
  mobile: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  callbackUrl: string | null;
  returnUrl: string | null;
  token: string;
  authType: 'otp' | 'ussd' | null;
  requestId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Chapa's documented test numbers (Testing Mobile): these succeed, every other number fails. */
export const TEST_SUCCESS_NUMBERS = ['0900123456', '0900112233', '0900881111', '0700123456', '0700112233', '0700881111'];
export const TEST_OTP = '12345';
/** Direct-charge types the fake knows, with the authorization each asks for. */
export const CHARGE_TYPES: Record<string, 'otp' | 'ussd'> = {
  telebirr: 'ussd',
  mpesa: 'ussd',
  cbebirr: 'ussd',
  ebirr: 'ussd',
  amole: 'otp',
  awashbirr: 'otp',
  yaya: 'ussd',
};
const CURRENCIES = ['ETB', 'USD'];
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

const failed = (status: number, message: unknown): FakeAnswer => ({ status, json: { message, status: 'failed', data: null } });
const now = () => new Date().toISOString();
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

export function registerPaymentRoutes(fake: ChapaFake): void {
  // Chapa answers in the mode of the key asking: CHASECK_TEST-... is its test side, CHASECK-... live.
  const keyMode = /^CHASECK_TEST-/i.test(fake.options.secretKey) ? 'test' : 'live';
  const txs = () => fake.store('transactions', () => new Map<string, FakeTransaction>());
  const settleMs = Number(process.env.CHAPA_FAKE_SETTLE_MS ?? 300);

  function validateCommon(b: Record<string, unknown>): FakeAnswer | { amount: string; currency: string; txRef: string } {
    const amount = text(b.amount);
    const currency = text(b.currency)?.toUpperCase();
    const txRef = text(b.tx_ref);
    const errors: Record<string, string[]> = {};
    if (!amount || !AMOUNT.test(amount) || Number(amount) <= 0) errors.amount = ['The amount must be a number greater than 0.'];
    if (!currency || !CURRENCIES.includes(currency)) errors.currency = ['The selected currency is invalid.'];
    if (!txRef || txRef.length > 50) errors.tx_ref = ['The tx ref field is required and at most 50 characters.'];
    if (Object.keys(errors).length) return failed(400, errors);
    if (txs().has(txRef!)) return failed(400, 'Transaction reference has been used before');
    return { amount: amount!, currency: currency!, txRef: txRef! };
  }

  function eventPayload(t: FakeTransaction): Record<string, unknown> {
    return {
      type: t.kind === 'hosted' ? 'API' : 'Direct Charge',
      first_name: t.firstName,
      last_name: t.lastName,
      email: t.email,
      mobile: t.mobile,
      currency: t.currency,
      amount: t.amount,
      charge: '0.00',
      status: t.status,
      mode: keyMode,
      reference: t.reference,
      tx_ref: t.txRef,
      payment_method: t.method ?? 'test',
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      customization: { title: null, description: null, logo: null },
      meta: null,
    };
  }

  /** Settles a transaction as the customer's action would, and tells the merchant (webhook, then callback). */
  async function settle(t: FakeTransaction, status: 'success' | 'failed' | 'cancelled'): Promise<void> {
    if (t.status !== 'pending') return;
    const event = status === 'success' ? 'charge.success' : status === 'cancelled' ? 'charge.cancelled' : 'charge.failed';
    if (status === 'success' && fake.switches.webhooks.early) {
      // The webhook runs ahead of Chapa's own record: verify still says pending when the merchant asks.
      fake.sendWebhook(event, { ...eventPayload(t), status });
      await fake.settled();
      t.status = status;
      t.updatedAt = now();
    } else {
      t.status = status;
      t.updatedAt = now();
      fake.sendWebhook(event, eventPayload(t));
    }
    if (t.callbackUrl && fake.switches.callbacks) {
      const url = new URL(t.callbackUrl);
      url.searchParams.set('trx_ref', t.txRef);
      url.searchParams.set('ref_id', t.reference);
      url.searchParams.set('status', status);
      await fetch(url, { signal: AbortSignal.timeout(15_000) })
        .then((r) => r.text())
        .catch(() => {});
    }
  }
  fake.store('settle', () => settle);

  fake.route('POST', '/transaction/initialize', 'initialize', (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const common = validateCommon(b);
    if ('status' in common) return common;
    const token = fake.nextId('');
    const t: FakeTransaction = {
      txRef: common.txRef,
      reference: fake.nextId('AP'),
      kind: 'hosted',
      amount: common.amount,
      currency: common.currency,
      status: 'pending',
      method: null,
      mobile: text(b.phone_number),
      firstName: text(b.first_name),
      lastName: text(b.last_name),
      email: text(b.email),
      callbackUrl: text(b.callback_url),
      returnUrl: text(b.return_url),
      token,
      authType: null,
      requestId: null,
      createdAt: now(),
      updatedAt: now(),
    };
    txs().set(t.txRef, t);
    return { status: 200, json: { message: 'Hosted Link', status: 'success', data: { checkout_url: `${fake.baseUrl}/checkout/payment/${token}` } } };
  });

  const byToken = (token: string) => [...txs().values()].find((t) => t.token === token && t.kind === 'hosted');

  fake.route('GET', '/checkout/payment/:token', 'page:hosted', (req) => {
    const t = byToken(req.params.token);
    if (!t) return { status: 404, html: '<h1>Payment not found</h1>' };
    return { status: 200, html: hostedPage(t) };
  });

  for (const [action, status] of [
    ['pay', 'success'],
    ['decline', 'failed'],
    ['cancel', 'cancelled'],
  ] as const) {
    fake.route('POST', `/checkout/payment/:token/${action}`, `page:${action}`, async (req) => {
      const t = byToken(req.params.token);
      if (!t) return { status: 404, html: '<h1>Payment not found</h1>' };
      t.method = 'telebirr';
      await settle(t, status);
      if (!t.returnUrl) return { status: 200, html: `<h1>Payment ${t.status}</h1>` };
      return { status: 303, redirect: t.returnUrl };
    });
  }

  fake.route('GET', '/transaction/verify/:tx_ref', 'verify', async (req) => {
    const scripted = fake.switches.verifyScript[req.params.tx_ref]?.shift();
    const delayMs = scripted?.delayMs ?? fake.switches.verifyDelayMs;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (scripted?.gate) await fake.gate(scripted.gate);
    const t = txs().get(req.params.tx_ref);
    if (!t) return failed(404, 'Invalid transaction or Transaction not found');
    const override = {
      ...(fake.switches.verifyOverride[t.txRef] ?? fake.switches.verifyOverride['*'] ?? {}),
      ...(scripted?.status ? { status: scripted.status } : {}),
    };
    // Chapa's examples disagree on the amount's type; the fake answers a number here and text in webhooks.
    const amount = override.amount ?? Number(t.amount);
    return {
      status: 200,
      json: {
        message: 'Payment details',
        status: 'success',
        data: {
          first_name: t.firstName,
          last_name: t.lastName,
          email: t.email,
          currency: override.currency ?? t.currency,
          amount,
          charge: 0,
          mode: override.mode ?? keyMode,
          method: t.method,
          type: t.kind === 'hosted' ? 'API' : 'Direct Charge',
          status: override.status ?? t.status,
          reference: t.reference,
          tx_ref: t.txRef,
          customization: { title: null, description: null, logo: null },
          meta: null,
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        },
      },
    };
  });

  fake.route('POST', '/charges', 'charge', (req) => {
    const type = (req.query.get('type') ?? '').toLowerCase();
    if (!CHARGE_TYPES[type]) return failed(400, 'Invalid payment method type');
    const b = (req.body ?? {}) as Record<string, unknown>;
    const mobile = text(b.mobile);
    if (!mobile || !/^0[79]\d{8}$/.test(mobile)) return failed(400, { mobile: ['Invalid Phone number, please use a proper phone number.'] });
    const common = validateCommon(b);
    if ('status' in common) return common;
    const authType = fake.switches.chargeAuthType ?? CHARGE_TYPES[type];
    const t: FakeTransaction = {
      txRef: common.txRef,
      reference: fake.nextId('CH'),
      kind: 'charge',
      amount: common.amount,
      currency: common.currency,
      status: 'pending',
      method: type,
      mobile,
      firstName: text(b.first_name),
      lastName: text(b.last_name),
      email: text(b.email),
      callbackUrl: null,
      returnUrl: null,
      token: fake.nextId(''),
      authType,
      requestId: authType === 'otp' ? fake.nextId('REQ') : null,
      createdAt: now(),
      updatedAt: now(),
    };
    txs().set(t.txRef, t);
    if (authType === 'ussd') {
      // The customer answers the push on their phone: test numbers approve, others decline.
      setTimeout(() => void settle(t, TEST_SUCCESS_NUMBERS.includes(mobile) ? 'success' : 'failed'), settleMs).unref();
    }
    return {
      status: 200,
      json: {
        message: 'Charge initiated',
        status: 'success',
        data: {
          auth_type: authType,
          requestID: t.requestId,
          meta: {
            message: authType === 'otp' ? 'Enter the OTP sent to the customer' : 'Payment request sent to the customer\u2019s phone',
            status: 'pending',
            ref_id: t.reference,
            payment_status: 'PENDING',
          },
        },
      },
    };
  });

  fake.route('POST', '/validate', 'validate', async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const reference = text(b.reference);
    const t = [...txs().values()].find((x) => x.kind === 'charge' && (x.reference === reference || x.txRef === reference));
    if (!t) return failed(404, 'Invalid transaction or Transaction not found');
    if (t.status !== 'pending' || t.authType !== 'otp') return failed(400, 'Transaction is not awaiting authorization');
    let secure: Record<string, unknown>;
    try {
      secure = decrypt3des(fake.options.encryptionKey ?? '', String(b.client ?? ''));
    } catch {
      return failed(400, 'Could not decrypt the client payload');
    }
    if (String(secure.otp ?? '') !== TEST_OTP || (t.requestId && secure.requestID !== t.requestId)) return failed(400, 'Invalid OTP');
    const ok = TEST_SUCCESS_NUMBERS.includes(t.mobile ?? '');
    await settle(t, ok ? 'success' : 'failed');
    return {
      status: 200,
      json: { message: ok ? 'Payment is completed' : 'Payment failed', trx_ref: t.txRef, processor_id: t.reference, status: ok ? 'success' : 'failed' },
    };
  });
}

function decrypt3des(key: string, base64: string): Record<string, unknown> {
  const decipher = createDecipheriv('des-ede3', Buffer.from(key, 'utf8').subarray(0, 24), null);
  const plain = Buffer.concat([decipher.update(Buffer.from(base64, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as Record<string, unknown>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function hostedPage(t: FakeTransaction): string {
  const done = t.status !== 'pending';
  const button = (action: string, label: string, style: string) =>
    `<form method="post" action="/checkout/payment/${escapeHtml(t.token)}/${action}"><button type="submit" style="${style}">${label}</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Chapa checkout (fake)</title></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">
<p style="color:#555;text-transform:uppercase;font-size:.8rem;letter-spacing:.05em">Chapa test checkout (local fake)</p>
<h1 style="font-size:1.5rem">Pay ${escapeHtml(t.currency)} ${escapeHtml(t.amount)}</h1>
<p>Reference <code>${escapeHtml(t.txRef)}</code></p>
${
  done
    ? `<p role="status">This payment is ${escapeHtml(t.status)}.</p>`
    : `<div style="display:flex;flex-direction:column;gap:.5rem">
${button('pay', 'Pay now', 'width:100%;padding:.75rem;background:#7dc400;border:0;border-radius:.5rem;font-size:1rem;color:#fff')}
${button('decline', 'Decline (fail)', 'width:100%;padding:.75rem;border:1px solid #999;border-radius:.5rem;background:#fff')}
${button('cancel', 'Cancel', 'width:100%;padding:.75rem;border:1px solid #999;border-radius:.5rem;background:#fff')}
</div>`
}
</body></html>`;
}
