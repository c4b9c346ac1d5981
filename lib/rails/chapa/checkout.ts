import { createCipheriv } from 'node:crypto';
import { ServiceError } from '../../errors';
import type {
  AuthorizeOutcome,
  AuthorizeRequest,
  CheckoutCustomer,
  DirectChargeOutcome,
  DirectChargeRequest,
  HostedCheckoutRequest,
  PaymentCheck,
} from '../../providers/provider-port';
import { answerData, answerMessage, readVerifiedTransaction, textField, toMajorUnits } from './chapa-answers';
import { callChapa } from './chapa-client';
import type { ChapaConfig } from './config';

/** Our wallet slugs (GET /api/v1/banks) and the direct-charge `type` Chapa knows them by; the others have no live rail. */
export const CHAPA_CHARGE_TYPES: Record<string, string> = { telebirr: 'telebirr', mpesa: 'mpesa', cbebirr: 'cbebirr' };

/** Chapa wants Ethiopian numbers as 10 digits (09... or 07...); other countries' numbers are not sent. */
function chapaPhone(e164: string | null | undefined): string | null {
  const m = /^\+251([79]\d{8})$/.exec(e164 ?? '');
  return m ? `0${m[1]}` : null;
}

function customerFields(card: CheckoutCustomer) {
  return {
    ...(card.first_name ? { first_name: card.first_name } : {}),
    ...(card.last_name ? { last_name: card.last_name } : {}),
    ...(card.email ? { email: card.email } : {}),
    ...(chapaPhone(card.phone_number) ? { phone_number: chapaPhone(card.phone_number) } : {}),
  };
}

/** POST /transaction/initialize; Chapa's hosted page URL, or a 502 Payment request failed (then nothing is recorded). */
export async function initializeHostedCheckout(config: ChapaConfig, req: HostedCheckoutRequest): Promise<string> {
  const answer = await callChapa(config, {
    method: 'POST',
    path: '/transaction/initialize',
    body: {
      amount: toMajorUnits(req.total),
      currency: req.currency,
      tx_ref: req.linkReference,
      callback_url: `${req.appUrl}/api/providers/chapa/callback`,
      return_url: `${req.appUrl}/checkout/${req.linkReference}?from=chapa`,
      ...customerFields(req.card),
      // Chapa limits the title to 16 characters of letters, digits, spaces, hyphens, underscores and dots.
      customization: { title: 'Gift card top-up', description: `Top-up of a gift card of ${req.businessName}`.replace(/[^\w .-]/g, '').slice(0, 50) },
    },
  });
  if (answer.kind === 'unavailable') throw new ServiceError('payment_request_failed', `Chapa did not answer (${answer.reason}); no payment link was created.`);
  if (answer.kind === 'refused')
    throw new ServiceError('payment_request_failed', `Chapa refused the checkout: ${answer.message}. No payment link was created.`);
  const url = textField(answerData(answer.body), 'checkout_url');
  if (!url || !/^https?:\/\//.test(url))
    throw new ServiceError('payment_request_failed', 'Chapa answered without a checkout_url; no payment link was created.');
  return url;
}

/** POST /charges?type=...: the push (USSD) or OTP request to the customer's wallet. */
export async function requestDirectCharge(config: ChapaConfig, req: DirectChargeRequest): Promise<DirectChargeOutcome> {
  const type = CHAPA_CHARGE_TYPES[req.paymentMethod];
  const mobile = chapaPhone(req.phoneNumber);
  if (!type || !mobile) return { kind: 'refused', message: `${req.paymentMethod} cannot be charged through Chapa with this phone number` };
  const { phone_number: _ignored, ...customer } = customerFields(req.card);
  const answer = await callChapa(config, {
    method: 'POST',
    path: `/charges?type=${encodeURIComponent(type)}`,
    body: { amount: toMajorUnits(req.total), currency: req.currency, tx_ref: req.linkReference, mobile, ...customer },
  });
  if (answer.kind === 'unavailable') return { kind: 'unknown', reason: answer.reason };
  if (answer.kind === 'refused') return { kind: 'refused', message: answer.message };
  const data = answerData(answer.body);
  const meta = (data.meta && typeof data.meta === 'object' ? data.meta : {}) as Record<string, unknown>;
  const auth = (textField(data, 'auth_type') ?? '').toLowerCase();
  return {
    kind: 'requested',
    nextAction: auth === 'otp' ? 'otp' : 'ussd',
    message: textField(meta, 'message') ?? answerMessage(answer.body) ?? '',
    providerReference: textField(meta, 'ref_id') ?? textField(data, 'reference'),
    requestId: textField(data, 'requestID') ?? textField(meta, 'requestID') ?? textField(data, 'request_id'),
  };
}

/** Chapa's direct-charge encryption: 3DES (ECB, PKCS#7 padding) under the first 24 bytes of the key, base64. */
function encryptForChapa(key: string, payload: unknown): string {
  const bytes = Buffer.from(key, 'utf8');
  if (bytes.length < 24) throw new ServiceError('payment_request_failed', 'CHAPA_ENCRYPTION_KEY must be at least 24 characters; the OTP was not sent.');
  const cipher = createCipheriv('des-ede3', bytes.subarray(0, 24), null);
  return Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('base64');
}

/** POST /validate with the customer's OTP; verify then decides (the answer to validate is not trusted for money). */
export async function authorizeDirectCharge(config: ChapaConfig, req: AuthorizeRequest): Promise<AuthorizeOutcome> {
  if (!config.encryptionKey) throw new ServiceError('payment_request_failed', 'CHAPA_ENCRYPTION_KEY is not set; the OTP was not sent.');
  const client = encryptForChapa(config.encryptionKey, { ...(req.requestId ? { requestID: req.requestId } : {}), otp: req.otp });
  const answer = await callChapa(config, {
    method: 'POST',
    path: '/validate',
    body: { reference: req.providerReference, client, type: CHAPA_CHARGE_TYPES[req.paymentMethod] ?? req.paymentMethod },
  });
  if (answer.kind === 'unavailable') return { kind: 'unknown', reason: answer.reason };
  if (answer.kind === 'refused') return { kind: 'refused', message: answer.message };
  return { kind: 'sent' };
}

/** GET /transaction/verify/{tx_ref}, read strictly (chapa-answers.ts). */
export async function verifyTransaction(config: ChapaConfig, linkReference: string): Promise<PaymentCheck> {
  const answer = await callChapa(config, { method: 'GET', path: `/transaction/verify/${encodeURIComponent(linkReference)}` });
  if (answer.kind === 'unavailable') return { kind: 'unavailable', reason: answer.reason };
  if (answer.kind === 'refused') return { kind: 'refused', httpStatus: answer.httpStatus, message: answer.message };
  const verified = readVerifiedTransaction(answer.body);
  if (verified.state === 'unreadable') return { kind: 'answered', verified };
  const { chapaReference, ...rest } = verified;
  return { kind: 'answered', verified: { ...rest, providerReference: chapaReference } };
}
