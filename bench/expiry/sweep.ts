import { sql } from 'drizzle-orm';
import { createBusiness } from '../../lib/admin/businesses';
import { expireDueCards } from '../../lib/cards/expire-cards';
import { failApprovalOfExpiredCard } from '../../lib/approvals/expire-approvals';
import { createDb, type Db } from '../../lib/db/client';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { fmt, openBenchEnv, writeResult } from '../bench-env';
import { seedCards } from '../seed-cards';

/**
 * The expiry sweep (lib/cards/expire-cards.ts) as a function call against
 * PostgreSQL: DUE funded cards fall due among few other cards, then among
 * BIG cards that are not due, and it prints cards expired per second at both
 * sizes and their ratio, plus what an idle sweep (nothing due) costs at the
 * big size. Run alone: `npx tsx bench/expiry/sweep.ts` (BENCH_EXPIRY_DUE,
 * BENCH_EXPIRY_BIG to resize).
 */
const DUE = Number(process.env.BENCH_EXPIRY_DUE ?? 1_000);
const BIG = Number(process.env.BENCH_EXPIRY_BIG ?? 100_000);
const SYSTEM = { type: 'system' as const, id: 'bench' };

async function dueCards(db: Db, label: string, others: number): Promise<number> {
  const biz = await createBusiness(db, { name: `Expiry bench ${label} ${Date.now()}` });
  if (others > 0) {
    const idle = await seedCards(db, biz.id, others);
    await db.execute(sql`UPDATE cards SET expires_at = now() + interval '1 year' WHERE card_number = ANY(${`{${idle.join(',')}}`}::text[])`);
  }
  const due = await seedCards(db, biz.id, DUE);
  const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
  const accounts = await db.execute<{ account_id: number }>(sql`SELECT account_id FROM cards WHERE card_number = ANY(${`{${due.join(',')}}`}::text[])`);
  for (const [i, row] of accounts.rows.entries()) {
    await postTransaction(db, {
      mode: 'test',
      kind: 'test_funding',
      businessId: biz.id,
      actor: SYSTEM,
      postings: [
        { accountId: deposits, amount: -(100 + i) },
        { accountId: Number(row.account_id), amount: 100 + i },
      ],
    });
  }
  await db.execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE card_number = ANY(${`{${due.join(',')}}`}::text[])`);
  await db.execute(sql`ANALYZE cards`);
  const started = performance.now();
  while (await expireDueCards(db, failApprovalOfExpiredCard, 10_000)) {}
  const seconds = (performance.now() - started) / 1000;
  const expired = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM cards WHERE business_id = ${biz.id} AND expired_at IS NOT NULL`);
  if (Number(expired.rows[0].n) !== DUE) throw new Error(`expected ${DUE} expired, found ${expired.rows[0].n}`);
  return DUE / seconds;
}

async function main() {
  const env = await openBenchEnv();
  const { db, pool } = createDb(env.databaseUrl, 4);
  try {
    const small = await dueCards(db, 'small', 0);
    const big = await dueCards(db, 'big', BIG);
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await expireDueCards(db, failApprovalOfExpiredCard);
      idle.push(performance.now() - t);
    }
    idle.sort((a, b) => a - b);
    const problems = (await verifyLedger(db)).problems;
    const result = {
      database: env.databaseLabel,
      due_cards: DUE,
      other_cards_big: BIG,
      small_cards_per_s: Math.round(small),
      big_cards_per_s: Math.round(big),
      ratio_small_over_big: Number(fmt(small / big)),
      idle_sweep_p50_ms: Number(fmt(idle[25])),
      ledger_problems: problems,
    };
    console.log(
      `expiry sweep: ${DUE} due cards expired at ${result.small_cards_per_s}/s alone and ${result.big_cards_per_s}/s among ${BIG} cards not due ` +
        `(ratio ${result.ratio_small_over_big}); an idle sweep takes ${result.idle_sweep_p50_ms} ms (p50); ledger ${problems.length === 0 ? 'clean' : 'NOT clean'}`,
    );
    writeResult('expiry-sweep', result);
  } finally {
    await pool.end();
    await env.close();
  }
}

await main();
