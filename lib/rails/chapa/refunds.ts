import { callChapa, type ChapaOutcome } from './chapa-client';
import { toMajorUnits } from './chapa-answers';
import type { ChapaConfig } from './config';
import type { RefundRequest } from '../../providers/provider-port';

/** POST /refund/{tx_ref}: Chapa repays the payer (in full without amount; we always send it) or refuses. */
export function requestRefund(config: ChapaConfig, r: RefundRequest): Promise<ChapaOutcome> {
  return callChapa(config, {
    method: 'POST',
    path: `/refund/${encodeURIComponent(r.txRef)}`,
    body: {
      amount: toMajorUnits(r.amount),
      reference: r.reference,
      ...(r.reason ? { reason: r.reason } : {}),
      meta: { refund_reference: r.reference },
    },
  });
}

/** A refusal that says the reference was already taken: the earlier send arrived. */
export const saysReferenceUsed = (message: string) =>
  // Only positive wording: "does not exist" or "not found" must never read as the earlier send having arrived.
  !/\b(not|no|never|unknown|invalid)\b/i.test(message) &&
  /reference.*\b(has been used|already (been )?(used|taken|exists|processed))|duplicate|already been (used|processed)/i.test(message);
