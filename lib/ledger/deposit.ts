import { z } from 'zod';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { amountSchema, currencySchema, modeSchema, parseInput } from '../validation';
import { businessAccountId, clearingAccountId } from './accounts';
import { postTransaction } from './post-transaction';
import type { Actor } from '../actor';

export const depositSchema = z.object({ mode: modeSchema, currency: currencySchema, amount: amountSchema });

/** Credits a business account from outside: test funds, or a recorded live deposit. */
export async function creditBusinessAccount(db: Db, businessId: number, actor: Actor, input: unknown) {
  const { mode, currency, amount } = parseInput(depositSchema, input);
  const business = await businessAccountId(db, businessId, mode, currency);
  const deposits = await clearingAccountId(db, 'deposits', mode, currency);
  const posted = await inTransaction(db, async (tx) => {
    const done = await postTransaction(tx, {
      mode,
      kind: 'business_deposit',
      businessId,
      actor,
      postings: [
        { accountId: deposits, amount: -amount },
        { accountId: business, amount },
      ],
    });
    await recordAudit(tx, { businessId, mode, actor, action: 'business.credited', target: currency, details: { amount, currency } });
    return done;
  });
  return { mode, currency, amount, balance: posted.balances.get(business)! };
}
