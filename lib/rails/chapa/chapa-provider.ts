import type { PaymentProvider, RefundOutcome } from '../../providers/provider-port';
import type { ChapaBody } from './chapa-answers';
import { textField } from './chapa-answers';
import { chapaBankRail } from './chapa-bank-rail';
import { chapaRecords } from './chapa-records';
import { receiveChapaWebhook } from './receive-chapa-webhook';
import { approveTransfer } from './transfer-approval';
import { authorizeDirectCharge, CHAPA_CHARGE_TYPES, initializeHostedCheckout, requestDirectCharge, verifyTransaction } from './checkout';
import { chapaConfig, type ChapaConfig } from './config';
import { requestRefund, saysReferenceUsed } from './refunds';

/** Each call reads the configuration afresh; the registry only hands Chapa out while a secret key is set. */
function configured(): ChapaConfig {
  const config = chapaConfig();
  if (!config) throw new Error('Chapa was called without CHAPA_SECRET_KEY');
  return config;
}

/** The mode a secret key talks to: Chapa's test keys are CHASECK_TEST-..., live keys CHASECK-... */
const chapaKeyMode = (config: ChapaConfig): 'test' | 'live' => (/^CHASECK_TEST-/i.test(config.secretKey) ? 'test' : 'live');

/** Live mode's provider: the composition root (lib/wire-providers.ts) registers it. */
export const chapaProvider: PaymentProvider = {
  name: 'chapa',
  label: 'Chapa',
  settings() {
    const config = chapaConfig();
    return config && { timeoutMs: config.timeoutMs, keyMode: chapaKeyMode(config) };
  },
  payouts: chapaBankRail,
  checkout: {
    chargeableWallets: Object.keys(CHAPA_CHARGE_TYPES),
    startHostedCheckout: (req) => initializeHostedCheckout(configured(), req),
    requestDirectCharge: (req) => requestDirectCharge(configured(), req),
    authorizeDirectCharge: (req) => authorizeDirectCharge(configured(), req),
    verifyPayment: (linkReference) => verifyTransaction(configured(), linkReference),
  },
  refunds: {
    async requestRefund(req): Promise<RefundOutcome> {
      const outcome = await requestRefund(configured(), req);
      if (outcome.kind === 'unavailable') return { kind: 'unavailable', reason: outcome.reason };
      if (outcome.kind === 'refused') return { kind: 'refused', message: outcome.message, referenceUsed: saysReferenceUsed(outcome.message) };
      const data = outcome.body.data;
      const reference = data && typeof data === 'object' ? textField(data as ChapaBody, 'reference') : null;
      return { kind: 'ok', providerReference: reference };
    },
  },
  records: chapaRecords(chapaConfig),
  inbound: {
    webhook: (db, headers, rawBody) => receiveChapaWebhook(db, chapaConfig(), headers, rawBody),
    approveTransfer: (db, headers, rawBody) =>
      // Chapa may sign in either header (one of them signing only the secret, as on webhooks).
      approveTransfer(db, chapaConfig(), { rawBody: rawBody.toString('utf8'), signatures: [headers.get('chapa-signature'), headers.get('x-chapa-signature')] }),
  },
};
