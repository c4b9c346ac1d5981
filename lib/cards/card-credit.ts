import { sql } from 'drizzle-orm';
import { renewCardExpiry } from './renew-card-expiry';
import type { DbOrTx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { checkPosting, postingCtes, postingValues, postingVerdict, type PostingVerdict, type PostTransactionOptions } from '../ledger/post-transaction';
import { cardCreditsWithinLimits, cardLimitVerdict } from '../limits/limit-sql';
import type { LimitExceeded } from '../limits/limit-refusal';
import { queueMoneyMessages } from '../messages/queue-message';

const limitedPosting = compiledOnce(() => sql`WITH ${postingCtes(cardCreditsWithinLimits)} SELECT ${postingVerdict}, ${cardLimitVerdict} FROM verdict v`);

/**
 * Posts a transaction that credits a card only while every card it credits
 * stays within its business's max_card_balance, checked in the posting
 * statement on the locked balances. Answers the limit instead when one
 * refused it; nothing was written then. A credit is a load: it renews the
 * card's expiry when the business counts from the last load, and tells the
 * cardholder (lib/messages/) in the same transaction.
 */
export async function postCardCredit(
  db: DbOrTx,
  opts: PostTransactionOptions,
  /** A shop order's payment: its gift tells the recipient instead of money_added (lib/shop/fulfil-order.ts). */
  o: { toldByCaller?: boolean } = {},
): Promise<{ transactionId: number; exceeded?: undefined } | { transactionId?: undefined; exceeded: LimitExceeded }> {
  const v = (await runCompiled<PostingVerdict & { limit_exceeded: LimitExceeded | null }>(db, limitedPosting(), postingValues(opts))).rows[0];
  if (v.limit_exceeded) return { exceeded: v.limit_exceeded };
  checkPosting(v, opts);
  const credited = opts.postings.filter((p) => p.amount > 0).map((p) => p.accountId);
  await renewCardExpiry(db, credited);
  if (!o.toldByCaller) await queueMoneyMessages(db, { accountIds: credited, transactionId: Number(v.transaction_id), kind: 'money_added' });
  return { transactionId: Number(v.transaction_id) };
}
