import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createBusiness } from '../../lib/admin/businesses';
import { createCard } from '../../lib/cards/create-card';
import { createDb, type Db } from '../../lib/db/client';
import { creditBusinessAccount } from '../../lib/ledger/deposit';
import { createPayout } from '../../lib/payouts/create-payout';
import { createTransfer } from '../../lib/payouts/create-transfer';
import { settlePayout } from '../../lib/payouts/settle-payout';
import { startUpload } from '../../lib/uploads/decide-upload';
import { previewUpload } from '../../lib/uploads/preview-upload';
import { runUploadPass } from '../../lib/uploads/run-uploads';
import { openBenchEnv } from '../bench-env';

/**
 * What the upload runner costs over calling the single-item cores directly:
 * N cards and N card-to-card payouts made once by a plain loop of createCard /
 * createPayout, and once as a CSV upload (preview, start, runner passes until
 * done), one process, against PostgreSQL, no HTTP. Prints rows/s of each and the
 * ratio upload/direct, and the preview's seconds. `npx tsx bench/uploads/run.ts`
 * (BENCH_UPLOAD_ROWS, default 2,000).
 */
const ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 2_000);
const actor = { type: 'system' as const, id: 'bench-uploads' };
const phone = () => `+2519${randomInt(1, 10)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

async function fundedCard(db: Db, businessId: number, amount: number) {
  const card = await createCard(db, { businessId, mode: 'test', actor, input: { phone_number: phone(), currency: 'ETB', first_name: 'Bench' } });
  await creditBusinessAccount(db, businessId, actor, { mode: 'test', currency: 'ETB', amount });
  const t = await createTransfer(db, {
    businessId,
    mode: 'test',
    actor,
    input: { amount, bank_slug: 'link', account_number: card.card_number, account_name: 'Bench' },
  });
  const { rows } = await db.execute<{ id: number }>(sql`SELECT id FROM payouts WHERE reference = ${t.provider_reference}`);
  await settlePayout(db, { payoutId: Number(rows[0].id), outcome: 'success', actor });
  return card.card_number;
}

async function timed(fn: () => Promise<void>) {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

async function main() {
  const env = await openBenchEnv();
  const { db, pool } = createDb(env.databaseUrl, 6);
  const biz = await createBusiness(db, { name: 'Bench uploads' });
  const scope = { businessId: biz.id, mode: 'test' as const };
  const source = await fundedCard(db, biz.id, ROWS * 200);
  const destination = (await createCard(db, { ...scope, actor, input: { phone_number: phone(), currency: 'ETB', first_name: 'To' } })).card_number;

  const phones = () => Array.from({ length: ROWS }, phone);
  const directCards = await timed(async () => {
    for (const p of new Set(phones())) await createCard(db, { ...scope, actor, input: { phone_number: p, currency: 'ETB', first_name: 'Direct' } });
  });
  const directPayouts = await timed(async () => {
    for (let i = 0; i < ROWS; i++)
      await createPayout(db, { ...scope, actor, input: { card_number: source, destination_card_number: destination, amount: 100 } });
  });

  const upload = async (kind: 'cards' | 'payouts', text: string) => {
    let preview = 0;
    const run = await timed(async () => {
      let reference = '';
      preview = await timed(async () => {
        reference = (await previewUpload(db, { ...scope, userId: 1, kind, fileName: `${kind}.csv`, text })).reference;
      });
      await startUpload(db, { ...scope, userId: 1, kind, reference });
      while (await runUploadPass(db)) {}
      const { rows } = await db.execute<{ status: string }>(sql`SELECT status FROM upload_jobs WHERE reference = ${reference}`);
      if (rows[0].status !== 'done') throw new Error(`upload ${reference} is ${rows[0].status}`);
    });
    return { preview, run };
  };
  const cards = await upload('cards', `phone_number,currency,first_name\n${[...new Set(phones())].map((p) => `${p},ETB,Upload`).join('\n')}`);
  const payouts = await upload('payouts', `card_number,amount,destination_card_number\n${`${source},1.00,${destination}\n`.repeat(ROWS)}`);

  const line = (name: string, direct: number, up: { preview: number; run: number }) =>
    console.log(
      `${name}: direct ${(ROWS / direct).toFixed(0)} rows/s; upload ${(ROWS / up.run).toFixed(0)} rows/s including preview ${up.preview.toFixed(2)} s; ` +
        `runner alone ${(ROWS / (up.run - up.preview)).toFixed(0)} rows/s; ratio upload/direct ${(direct / up.run).toFixed(2)}`,
    );
  console.log(`bench uploads: ${ROWS} rows each, ${env.databaseLabel}`);
  line('cards', directCards, cards);
  line('card-to-card payouts', directPayouts, payouts);
  await pool.end();
  await env.close();
}

await main();
