import { cardNotFound, ServiceError } from '../errors';
import { postingRefusal } from '../ledger/post-transaction';
import { limitExceededError } from '../limits/limit-refusal';
import type { PayoutStatementRow } from './payout-statement';
import { destinationCardNotFound, sourceInsufficient } from './payout-refusals';

/**
 * What a payout statement's verdict means. `written`: the money moved and
 * every row was written. A ServiceError: refused for good, nothing written,
 * and that is the answer (the statement saw the latest rows under lock).
 * `parties_changed`: its guard found a card no longer active or the fee rule
 * edited since they were read; nothing written, and only a fresh read says
 * whether to refuse or redo the payout.
 */
export type PayoutVerdict = 'written' | 'parties_changed' | ServiceError;

/** The one reading of the payout statement's verdict; a new guard of the statement adds its answer here. */
export function payoutVerdict(v: PayoutStatementRow, sourceAccountId: number, currency: string): PayoutVerdict {
  if (!v.key_usable) return new ServiceError('forbidden', 'The API key is no longer usable; nothing was moved.');
  // A limit's refusal is final: it must not read as parties changed and be redone.
  if (v.limit_exceeded) return limitExceededError(v.limit_exceeded, currency);
  const refusal = postingRefusal(v);
  if (refusal === undefined) return 'written';
  if (refusal.reason === 'guard') return 'parties_changed';
  const fromSource = refusal.accountId === sourceAccountId;
  // A closed account is a card cancelled since it was read.
  if (refusal.reason === 'closed') return fromSource ? cardNotFound() : destinationCardNotFound();
  return fromSource ? sourceInsufficient() : new ServiceError('insufficient_balance', 'An account in this payout does not hold enough funds.');
}
