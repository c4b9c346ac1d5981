import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { startUpload } from '../lib/uploads/decide-upload';
import { previewUpload } from '../lib/uploads/preview-upload';
import { apiClient, randomPhone } from './helpers';
import { createScratchDatabase, freePort, startTestServer, type TestServer } from './test-server';

/**
 * SIGKILL of the server while its upload runner is in the middle of a card
 * upload and a payout upload, then a restart: every valid row ends done
 * exactly once (a card or a payout per succeeded row, no more, no fewer), and
 * the source card lost exactly what the succeeded payout rows moved.
 */

const ADMIN = 'adm_uploads_crash_0123456789abcdef_0123';
const CARD_ROWS = 1_500;
const PAYOUT_ROWS = 400;
let server: TestServer;
let db: Db;
let endPool: () => Promise<void>;
let start: () => Promise<TestServer>;

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'uploads_crash');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  const port = await freePort();
  // A claim of the killed server is taken over after a second, not the default half minute.
  // The upload runner is the loop under test; the others only share the two cores with it.
  start = () =>
    startTestServer({ databaseUrl: url, adminToken: ADMIN, port, processGroup: true, env: { UPLOAD_CLAIM_TIMEOUT_MS: '1000' }, loops: ['upload-runner'] });
  server = await start();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await endPool?.();
});

const rowCounts = async (reference: string) => {
  const { rows } = await db.execute<{ status: string; n: number }>(sql`
    SELECT r.status, count(*)::int AS n FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id WHERE j.reference = ${reference} GROUP BY r.status`);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
};

it('a server killed mid-job resumes after a restart and runs every row exactly once', async () => {
  const admin = apiClient(ADMIN, server.baseUrl);
  const made = await admin.post('/api/admin/businesses', { name: 'Upload crash' });
  expect(made.status).toBe(201);
  const businessId: number = made.body.data.id;
  const api = apiClient(made.body.data.api_keys.test, server.baseUrl);
  const newCard = async () => (await api.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Crash' })).body.data.card_number;
  const [source, destination] = [await newCard(), await newCard()];
  const funds = 10_000_000;
  expect((await admin.post(`/api/admin/businesses/${businessId}/balance`, { mode: 'test', currency: 'ETB', amount: funds })).status).toBe(200);
  const transfer = await api.post('/api/v1/transfers', { amount: funds, bank_slug: 'link', account_number: source, account_name: 'Funding' });
  expect((await api.post(`/api/v1/test-helpers/payouts/${transfer.body.data.provider_reference}/settle`, { status: 'success' })).status).toBe(200);

  const phones = new Set<string>();
  while (phones.size < CARD_ROWS) phones.add(randomPhone());
  const scope = { businessId, mode: 'test' as const, userId: 1 };
  const cardsJob = await previewUpload(db, {
    ...scope,
    kind: 'cards',
    fileName: 'cards.csv',
    text: `phone_number,currency,first_name\n${[...phones].map((p, i) => `${p},ETB,Holder ${i}`).join('\n')}`,
  });
  const payoutsJob = await previewUpload(db, {
    ...scope,
    kind: 'payouts',
    fileName: 'payouts.csv',
    text: `card_number,amount,destination_card_number\n${Array.from({ length: PAYOUT_ROWS }, (_, i) => `${source},${1 + (i % 7)}.00,${destination}`).join('\n')}`,
  });
  await startUpload(db, { ...scope, kind: 'cards', reference: cardsJob.reference });
  await startUpload(db, { ...scope, kind: 'payouts', reference: payoutsJob.reference });

  // Kill while the cards job is part way through.
  await expect.poll(async () => (await rowCounts(cardsJob.reference)).succeeded ?? 0, { timeout: 60_000, interval: 20 }).toBeGreaterThan(50);
  await server.stop('SIGKILL');
  const atKill = await rowCounts(cardsJob.reference);
  expect(atKill.pending ?? 0).toBeGreaterThan(0);

  server = await start();
  const restarted = Date.now();
  for (const reference of [cardsJob.reference, payoutsJob.reference]) {
    await expect
      .poll(async () => (await db.execute<{ status: string }>(sql`SELECT status FROM upload_jobs WHERE reference = ${reference}`)).rows[0].status, {
        timeout: 120_000,
      })
      .toBe('done');
  }
  console.log(
    `uploads crash: killed with ${JSON.stringify(atKill)} card rows; after the restart the rest of ${CARD_ROWS} card and ${PAYOUT_ROWS} payout rows took ${((Date.now() - restarted) / 1000).toFixed(1)} s`,
  );
  expect(await rowCounts(cardsJob.reference)).toEqual({ succeeded: CARD_ROWS });
  expect(await rowCounts(payoutsJob.reference)).toEqual({ succeeded: PAYOUT_ROWS });

  // Every card of the business is a succeeded row's (plus the two made above), each row's reference a different card.
  const cards = await db.execute<{ n: number; referenced: number }>(sql`
    SELECT count(*)::int AS n, count(*) FILTER (WHERE card_number IN (
      SELECT r.result_reference FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id WHERE j.reference = ${cardsJob.reference}))::int AS referenced
    FROM cards WHERE business_id = ${businessId}`);
  expect(cards.rows[0]).toEqual({ n: CARD_ROWS + 2, referenced: CARD_ROWS });

  const payouts = await db.execute<{ n: number; total: number; distinct_refs: number }>(sql`
    SELECT count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total,
      (SELECT count(DISTINCT r.result_reference)::int FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id
       WHERE j.reference = ${payoutsJob.reference} AND r.result_reference IN (SELECT reference FROM payouts)) AS distinct_refs
    FROM payouts WHERE business_id = ${businessId} AND payout_type = 'card_to_card'`);
  const expected = Array.from({ length: PAYOUT_ROWS }, (_, i) => (1 + (i % 7)) * 100).reduce((a, b) => a + b, 0);
  expect(payouts.rows[0]).toEqual({ n: PAYOUT_ROWS, total: expected, distinct_refs: PAYOUT_ROWS });
  const balance = async (n: string) => (await api.get(`/api/v1/card/${n}`)).body.data.available_amount;
  expect(await balance(source)).toBe(funds - expected);
  expect(await balance(destination)).toBe(expected);
}, 300_000);
