import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { APPROVAL_TTL_MS } from '../lib/approvals/approval-request';
import { setApprovalThreshold } from '../lib/approvals/approval-thresholds';
import { ServiceError } from '../lib/errors';
import { approveRequest, rejectRequest } from '../lib/approvals/decide-approval';
import { expireApprovals } from '../lib/approvals/expire-approvals';
import { listApprovals } from '../lib/approvals/list-approvals';
import { approveUpload, cancelUpload, startUpload } from '../lib/uploads/decide-upload';
import { normaliseTypedPhone } from '../lib/cards/phone';
import { previewUpload } from '../lib/uploads/preview-upload';
import { runUploadPass } from '../lib/uploads/run-uploads';
import { getUploadJob, listUploadJobs } from '../lib/uploads/upload-view';
import { heldAccountId } from '../lib/ledger/accounts';
import { businessWithCard, cardBalance, fundCard, setFees } from './api/payouts-fixtures';
import { createCard, createTestBusiness, randomPhone, testDb } from './helpers';

const UPLOADER = 9_000_001;
const APPROVER = 9_000_002;

async function rowsOf(reference: string) {
  const { rows } = await testDb().execute<{
    row_number: number;
    status: string;
    result_reference: string | null;
    error_code: string | null;
    error_message: string | null;
  }>(sql`
    SELECT r.row_number, r.status, r.result_reference, r.error_code, r.error_message FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id
    WHERE j.reference = ${reference} ORDER BY r.row_number`);
  return rows;
}

async function jobOf(reference: string) {
  const { rows } = await testDb().execute<{
    status: string;
    row_count: number;
    invalid_count: number;
    totals: Record<string, unknown>;
    approval_reference: string | null;
  }>(sql`SELECT status, row_count, invalid_count, totals, approval_reference FROM upload_jobs WHERE reference = ${reference}`);
  return rows[0];
}

/** The approval request a waiting upload became, moved past its time (by data): the approvals' sweep may expire it. */
async function overdue(reference: string) {
  const approval = (await jobOf(reference)).approval_reference!;
  await testDb().execute(sql`UPDATE approval_requests SET expires_at = now() - interval '1 second' WHERE reference = ${approval}`);
  return approval;
}

/** Runs passes here (the test server's runner may take some rows too: both claim with SKIP LOCKED) until the job is done. */
async function runToEnd(reference: string) {
  await expect
    .poll(
      async () => {
        await runUploadPass(testDb());
        return (await jobOf(reference)).status;
      },
      { timeout: 60_000 },
    )
    .toBe('done');
}

/**
 * Locks an upload's rows (one row, or all) from a connection of its own, so runners (this file's and the test
 * server's), which claim with SKIP LOCKED, pass them by until `release`; `client` runs statements in that transaction.
 */
async function lockRows(reference: string, row?: number) {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `SELECT 1 FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id WHERE j.reference = $1 ${row === undefined ? '' : 'AND r.row_number = $2'} FOR UPDATE OF r`,
    row === undefined ? [reference] : [reference, row],
  );
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await client.query('COMMIT');
    await client.end();
  };
  return { client, release };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err) => (err instanceof ServiceError ? err.code : String(err)),
  );

/**
 * A business with a card holding `balance`, an ETB approval threshold of 500.00 and a payout file of two rows
 * (3.00 and 2.00 to another card) that together reach it: `preview` checks the file as the uploader.
 */
async function overThresholdFile(balance: number) {
  const { biz, card } = await businessWithCard(balance);
  const to = (await createCard(biz.test)).card_number;
  await setApprovalThreshold(testDb(), { businessId: biz.id, mode: 'test', userId: APPROVER, currency: 'ETB', amount: 50_000 });
  const text = `card_number,amount,destination_card_number\n${card.card_number},300,${to}\n${card.card_number},200,${to}\n`;
  const scope = { businessId: biz.id, mode: 'test' as const, kind: 'payouts' as const };
  const preview = async () => (await previewUpload(testDb(), { ...scope, userId: UPLOADER, fileName: 'p.csv', text })).reference;
  return { biz, card, to, scope, preview };
}

describe('card uploads', () => {
  it('check each row at preview, run only the valid ones once each, and keep every outcome', async () => {
    const biz = await createTestBusiness();
    const [a, b, c] = [randomPhone(), randomPhone(), randomPhone()];
    const existing = randomPhone();
    await createCard(biz.test, 'ETB', existing);
    const text = [
      '\uFEFFphone_number;currency;first_name;last_name',
      `${a};ETB;Abebe;"Kebede; Jr"`,
      '',
      `${b};usd;"Sara ""S""";`,
      `${a};ETB;Again;`,
      `${c};ETB;=1+1;`,
      `0911;ETB;Local;`,
      `${randomPhone()};EUR;Euro;`,
      `${existing};ETB;Has one;`,
    ].join('\r\n');
    const { reference } = await previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'cards', fileName: 'cards.csv', text });
    expect(await jobOf(reference)).toMatchObject({ status: 'previewed', row_count: 7, invalid_count: 4, totals: { ETB: { rows: 2 }, USD: { rows: 1 } } });
    const previewed = await rowsOf(reference);
    expect(previewed.map((r) => [r.row_number, r.status, r.error_code])).toEqual([
      [2, 'pending', null],
      [4, 'pending', null],
      [5, 'invalid', 'card_exists'],
      [6, 'invalid', 'validation_error'],
      [7, 'invalid', 'invalid_phone_number'],
      [8, 'invalid', 'validation_error'],
      [9, 'pending', null],
    ]);
    expect(previewed[3].error_message).toMatch(/first_name starts with "="/);
    expect(previewed[2].error_message).toMatch(/Line 2 already asks/);

    expect(await startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'cards' })).toEqual({ status: 'running' });
    expect(await refusal(startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'cards' }))).toBe('already_decided');
    await runToEnd(reference);
    const done = await rowsOf(reference);
    expect(done.map((r) => [r.row_number, r.status, r.error_code])).toEqual([
      [2, 'succeeded', null],
      [4, 'succeeded', null],
      [5, 'invalid', 'card_exists'],
      [6, 'invalid', 'validation_error'],
      [7, 'invalid', 'invalid_phone_number'],
      [8, 'invalid', 'validation_error'],
      // Found only when run: the customer already had a card before the upload.
      [9, 'failed', 'card_exists'],
    ]);
    const list = await biz.test.get('/api/v1/card?limit=100');
    const numbers = list.body.data.items.map((card: { card_number: string }) => card.card_number);
    expect(numbers).toContain(done[0].result_reference);
    expect(numbers).toContain(done[1].result_reference);
    expect(list.body.data.total).toBe(3);
  });

  it('read phone numbers as the new-card form does: national, with or without the trunk 0, with the country code, or international', async () => {
    const biz = await createTestBusiness();
    const phones = [randomPhone(), randomPhone(), randomPhone(), randomPhone()];
    const national = phones.map((p) => p.slice(4));
    const written = [`0${national[0]}`, national[1], `251${national[2]}`, `+251 ${national[3].slice(0, 3)} ${national[3].slice(3)}`];
    const text = ['phone_number,currency,first_name', ...written.map((w, i) => `${w},ETB,Row${i}`)].join('\n');
    const { reference } = await previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'cards', fileName: 'team.csv', text });
    const previewed = await rowsOf(reference);
    expect(previewed.map((r) => [r.status, r.error_message])).toEqual(phones.map(() => ['pending', null]));
    for (const [i, phone] of phones.entries()) {
      expect(normaliseTypedPhone(written[i], 'ET').e164).toBe(phone);
    }
    await startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'cards' });
    await runToEnd(reference);
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(phones.map(() => 'succeeded'));
    for (const phone of phones) {
      expect((await biz.test.get(`/api/v1/card?phone_number=${encodeURIComponent(phone)}`)).body.data.total).toBe(1);
    }
    // The API keeps SPEC.md's rule: POST /card takes international numbers only.
    expect((await biz.test.post('/api/v1/card', { phone_number: `0${national[0]}`, currency: 'USD' })).status).toBe(400);
  });

  it('refuse a file with unknown or missing columns, and another business cannot start the job', async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const preview = (text: string) =>
      previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'cards', fileName: 'x.csv', text }).catch(
        (e: ServiceError) => e.detail,
      );
    expect(await preview('phone,currency\n1,ETB')).toEqual({ file: expect.stringMatching(/Unknown column phone/) });
    expect(await preview('first_name\nA')).toEqual({ file: expect.stringMatching(/lacks phone_number, currency/) });
    const { reference } = await previewUpload(testDb(), {
      businessId: biz.id,
      mode: 'test',
      userId: UPLOADER,
      kind: 'cards',
      fileName: 'x.csv',
      text: `phone_number,currency,first_name\n${randomPhone()},ETB,A`,
    });
    expect(await refusal(startUpload(testDb(), { businessId: other.id, mode: 'test', userId: UPLOADER, reference, kind: 'cards' }))).toBe('not_found');
    expect(await refusal(startUpload(testDb(), { businessId: biz.id, mode: 'live', userId: UPLOADER, reference, kind: 'cards' }))).toBe('not_found');
    expect(await refusal(startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'payouts' }))).toBe('not_found');
  });
});

describe('a file of 10,000 rows', () => {
  it('is previewed in one go (rows written in chunks) and one row more is refused whole', async () => {
    const biz = await createTestBusiness();
    const phones = new Set<string>();
    while (phones.size < 10_001) phones.add(randomPhone());
    const lines = [...phones].map((p, i) => `${p},ETB,Holder ${i}`);
    const text = (n: number) => `phone_number,currency,first_name\n${lines.slice(0, n).join('\n')}`;
    const preview = (n: number) =>
      previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'cards', fileName: 'big.csv', text: text(n) });
    const started = performance.now();
    const { reference } = await preview(10_000);
    console.log(`uploads: previewed 10,000 card rows (${(text(10_000).length / 1e6).toFixed(2)} MB) in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    expect(await jobOf(reference)).toMatchObject({ row_count: 10_000, invalid_count: 0, totals: { ETB: { rows: 10_000, amount: 0, fee: 0 } } });
    expect(await preview(10_001).catch((e: ServiceError) => e.detail)).toEqual({ file: expect.stringMatching(/more than 10,000 rows/) });
  });
});

describe('payout uploads', () => {
  it('preview fees per currency with the payout quote, pay each valid row once, and fail what the core refuses', async () => {
    const { biz, card } = await businessWithCard(100_000);
    await setFees(biz, 'test', [{ applies_to: 'card_to_card', percent: 1, fixed: 10 }]);
    const to = (await createCard(biz.test)).card_number;
    const spaced = to.replace(/(\d{4})(?=\d)/g, '$1 ');
    const text = [
      'card_number,amount,destination_card_number,charge_payer',
      `${card.card_number},100.00,${to},`,
      `${card.card_number},"1,000.50",${spaced},`,
      `${card.card_number},25.505,${to},`,
      `${card.card_number},@SUM(1),${to},`,
      `${card.card_number},10,${card.card_number},`,
      `0000000000000000,10,${to},`,
      `${card.card_number},800,${to},`,
    ].join('\n');
    const { reference } = await previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'payouts', fileName: 'p.csv', text });
    const job = await jobOf(reference);
    // Fees: 1% + 0.10 of 100.00, 1,000.50 and 800.00.
    expect(job.totals).toEqual({ ETB: { rows: 3, amount: 10_000 + 100_050 + 80_000, fee: 110 + 1_011 + 810 } });
    expect((await rowsOf(reference)).map((r) => [r.row_number, r.status, r.error_code])).toEqual([
      [2, 'pending', null],
      [3, 'pending', null],
      [4, 'invalid', 'validation_error'],
      [5, 'invalid', 'validation_error'],
      [6, 'invalid', 'same_card'],
      [7, 'invalid', 'card_not_found'],
      [8, 'pending', null],
    ]);
    await startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'payouts' });
    await runToEnd(reference);
    const rows = await rowsOf(reference);
    expect(rows[0]).toMatchObject({ status: 'succeeded' });
    // 1,000.50 plus its fee is more than the card holds after the first.
    expect(rows[1]).toMatchObject({ status: 'failed', error_code: 'insufficient_balance' });
    expect(rows[6]).toMatchObject({ status: 'succeeded' });
    expect(await cardBalance(biz.test, card.card_number)).toBe(100_000 - 10_110 - 80_810);
    expect(await cardBalance(biz.test, to)).toBe(90_000);
    const status = await biz.test.get(`/api/v1/card/payout/${rows[0].result_reference}/status`);
    expect(status.status).toBe(200);
  });

  it('run their rows through the batch engine: ten card-to-card rows are one chunk, written by one chunk statement', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const to = (await createCard(biz.test)).card_number;
    const text = ['card_number,amount,destination_card_number', ...Array.from({ length: 10 }, (_, i) => `${card.card_number},${i + 1},${to}`)].join('\n');
    const { reference } = await previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'payouts', fileName: 'p.csv', text });
    await startUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, reference, kind: 'payouts' });
    await runToEnd(reference);
    const rows = await rowsOf(reference);
    expect(rows.map((r) => r.status)).toEqual(Array(10).fill('succeeded'));
    // Payouts one chunk statement writes share one created_at; row by row, each had its own transaction's.
    const { rows: made } = await testDb().execute<{ times: number; payouts: number }>(sql`
      SELECT count(DISTINCT created_at)::int AS times, count(*)::int AS payouts FROM payouts
      WHERE business_id = ${biz.id} AND mode = 'test' AND reference = ANY(${`{${rows.map((r) => r.result_reference).join(',')}}`}::text[])`);
    expect(made[0].payouts).toBe(10);
    // Two runners (the server's and this test's) may, rarely, split the job's first claim between them.
    expect(made[0].times).toBeLessThanOrEqual(2);
    expect(await cardBalance(biz.test, to)).toBe(5_500);
  });

  it('refuse a bank row whose account the bank would refuse, in the words of the API', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const row = (account: string) => `${card.card_number},10,cbe,${account},Abebe Kebede`;
    const text = ['card_number,amount,bank_slug,account_number,account_name', row('1000123456789'), row('12345'), row('abc!@#')].join('\n');
    const { reference } = await previewUpload(testDb(), { businessId: biz.id, mode: 'test', userId: UPLOADER, kind: 'payouts', fileName: 'p.csv', text });
    const words = 'Payout request failed: Commercial Bank of Ethiopia account numbers have 13 digits.';
    expect((await rowsOf(reference)).map((r) => [r.row_number, r.status, r.error_code, r.error_message])).toEqual([
      [2, 'pending', null, null],
      [3, 'invalid', 'payout_request_failed', words],
      [4, 'invalid', 'payout_request_failed', words],
    ]);
  });

  it('wait for a second person when a currency total reaches the approval threshold; the uploader cannot approve', async () => {
    const { biz, to, scope, preview } = await overThresholdFile(100_000);
    const reference = await preview();
    // Someone else starting it could then approve it as the "second" person: only the uploader starts.
    expect(await refusal(startUpload(testDb(), { ...scope, userId: APPROVER, reference }))).toBe('forbidden');
    expect(await startUpload(testDb(), { ...scope, userId: UPLOADER, reference })).toEqual({ status: 'awaiting_approval' });
    await runUploadPass(testDb());
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(await refusal(approveUpload(testDb(), { ...scope, userId: UPLOADER, reference }))).toBe('forbidden');
    expect(await approveUpload(testDb(), { ...scope, userId: APPROVER, reference })).toEqual({ status: 'running' });
    await runToEnd(reference);
    expect(await cardBalance(biz.test, to)).toBe(50_000);

    const second = await preview();
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference: second });
    expect(await cancelUpload(testDb(), { ...scope, userId: APPROVER, reference: second, asApprover: true })).toEqual({ status: 'cancelled' });
    expect((await rowsOf(second)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(await cardBalance(biz.test, to)).toBe(50_000);
  });

  it('expire as a single approval request does, audited, never to be approved, rejected, started or run after', async () => {
    const { biz, to, scope, preview } = await overThresholdFile(100_000);
    const waiting = async () => {
      const reference = await preview();
      expect(await startUpload(testDb(), { ...scope, userId: UPLOADER, reference })).toEqual({ status: 'awaiting_approval' });
      return reference;
    };
    const reference = await waiting();
    const later = await waiting();
    const { rows } = await testDb().execute<{ left_ms: number }>(
      sql`SELECT extract(epoch FROM r.expires_at - now()) * 1000 AS left_ms FROM upload_jobs j JOIN approval_requests r ON r.reference = j.approval_reference
          WHERE j.reference = ${reference}`,
    );
    expect(Number(rows[0].left_ms)).toBeGreaterThan(APPROVAL_TTL_MS - 60_000);
    expect(Number(rows[0].left_ms)).toBeLessThanOrEqual(APPROVAL_TTL_MS);
    expect((await getUploadJob(testDb(), { ...scope, reference })).expiresAt).not.toBeNull();

    // Its time is up (moved by data): nobody may decide it, even before the sweep has come by.
    const approval = await overdue(reference);
    expect(await refusal(approveUpload(testDb(), { ...scope, userId: APPROVER, reference }))).toBe('already_decided');
    expect(await refusal(cancelUpload(testDb(), { ...scope, userId: APPROVER, reference, asApprover: true }))).toBe('already_decided');
    // The approvals' sweep the server runs every minute (run here too: whichever instance comes first expires it, once).
    await expect
      .poll(async () => {
        await expireApprovals(testDb());
        return (await jobOf(reference)).status;
      })
      .toBe('expired');
    expect((await jobOf(later)).status).toBe('awaiting_approval');
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    const audits = await testDb().execute<{ action: string; actor_type: string; approval: string }>(
      sql`SELECT action, actor_type, details->>'reference' AS approval FROM audit_log
          WHERE business_id = ${biz.id} AND mode = 'test' AND target = ${reference} AND action LIKE '%expired'`,
    );
    expect(audits.rows).toEqual([{ action: 'approval.expired', actor_type: 'system', approval }]);

    // Each attempt made only when its refusal is awaited: made all at once, a later one's rejection went unhandled meanwhile.
    for (const attempt of [
      () => approveUpload(testDb(), { ...scope, userId: APPROVER, reference }),
      () => cancelUpload(testDb(), { ...scope, userId: APPROVER, reference, asApprover: true }),
      () => cancelUpload(testDb(), { ...scope, userId: UPLOADER, reference, asApprover: false }),
      () => startUpload(testDb(), { ...scope, userId: UPLOADER, reference }),
    ])
      expect(await refusal(attempt())).toBe('already_decided');
    await runUploadPass(testDb());
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(await cardBalance(biz.test, to)).toBe(0);
    const view = await getUploadJob(testDb(), { ...scope, reference });
    expect(view).toMatchObject({ status: 'expired', expiresAt: null });
    expect((await listUploadJobs(testDb(), scope)).find((j) => j.reference === reference)?.status).toBe('expired');
  });

  it('hold its money while waiting, as a form payout does: nothing can overspend it, and rejection or expiry releases it', async () => {
    const { biz, card, to, scope, preview } = await overThresholdFile(60_000);
    const overspend = () => biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: to, amount: 35_000 });
    for (const end of ['rejected', 'expired'] as const) {
      const reference = await preview();
      await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
      // The file's 500.00 is held on the card at once: 100.00 is left to spend.
      expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
      const spent = await overspend();
      expect(spent.status, JSON.stringify(spent.body)).toBe(400);
      expect(spent.body.message).toBe('Insufficient balance');
      const approval = (await jobOf(reference)).approval_reference!;
      if (end === 'rejected') await rejectRequest(testDb(), { businessId: biz.id, mode: 'test', userId: APPROVER, reference: approval, asMaker: false });
      else {
        await overdue(reference);
        await expect
          .poll(async () => {
            await expireApprovals(testDb());
            return (await jobOf(reference)).status;
          })
          .toBe('expired');
      }
      expect(await cardBalance(biz.test, card.card_number)).toBe(60_000);
      expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    }
    expect(await cardBalance(biz.test, to)).toBe(0);
  });

  it('keep its money held after approval until each row runs: nothing spends the share of a row before the row does', async () => {
    const { biz, card, to, scope, preview } = await overThresholdFile(60_000);
    const reference = await preview();
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
    const [first, second] = [await lockRows(reference, 2), await lockRows(reference, 3)];
    const spend = () => biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: to, amount: 15_000 });
    try {
      expect(await approveUpload(testDb(), { ...scope, userId: APPROVER, reference })).toEqual({ status: 'running' });
      // Approved, not yet run: the file's 500.00 is still held, and 150.00 more cannot be spent.
      expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
      expect((await spend()).body.message).toBe('Insufficient balance');
      // The first row runs and pays its 300.00; the second row's 200.00 stays held until it runs.
      await first.release();
      await expect
        .poll(
          async () => {
            await runUploadPass(testDb());
            return (await rowsOf(reference)).map((r) => r.status);
          },
          { timeout: 30_000 },
        )
        .toEqual(['succeeded', 'pending']);
      expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
      expect((await spend()).body.message).toBe('Insufficient balance');
    } finally {
      await first.release();
      await second.release();
    }
    await runToEnd(reference);
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    expect(await cardBalance(biz.test, to)).toBe(50_000);
    const approval = (await jobOf(reference)).approval_reference!;
    const holds = await testDb().execute<{ status: string; amount: string }>(sql`SELECT status, amount FROM holds WHERE purpose = ${approval}`);
    expect(holds.rows).toEqual([{ status: 'released', amount: expect.anything() }]);
  });

  it('lock the held account with the cards in id order, so a till hold and a chunk queue instead of deadlocking', async () => {
    // The held account made before the cards has the lower id: a till hold locks it first, then the card.
    const biz = await createTestBusiness();
    const held = await heldAccountId(testDb(), biz.id, 'test', 'ETB');
    const card = await createCard(biz.test);
    await fundCard(biz, card.card_number, 60_000);
    const to = (await createCard(biz.test)).card_number;
    const { rows: ids } = await testDb().execute<{ account_id: number }>(sql`SELECT account_id FROM cards WHERE card_number = ${card.card_number}`);
    const cardAccount = Number(ids[0].account_id);
    expect(held).toBeLessThan(cardAccount);
    await setApprovalThreshold(testDb(), { businessId: biz.id, mode: 'test', userId: APPROVER, currency: 'ETB', amount: 50_000 });
    const text = `card_number,amount,destination_card_number\n${card.card_number},300,${to}\n${card.card_number},200,${to}\n`;
    const scope = { businessId: biz.id, mode: 'test' as const, kind: 'payouts' as const };
    const reference = (await previewUpload(testDb(), { ...scope, userId: UPLOADER, fileName: 'p.csv', text })).reference;
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
    const rows = await lockRows(reference);
    // A till on a connection of its own holds the held account, as a hold's posting does before it takes the card.
    const till = new pg.Client({ connectionString: inject('databaseUrl') });
    await till.connect();
    const tillPid = Number((await till.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    try {
      await approveUpload(testDb(), { ...scope, userId: APPROVER, reference });
      await till.query('BEGIN');
      await till.query('SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE', [held]);
      await rows.release();
      const run = runUploadPass(testDb());
      // A runner (this one or the test server's) has begun the chunk and waits for the held account.
      await expect
        .poll(async () => {
          const { rows: waiting } = await testDb().execute(
            sql`SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE NOT l.granted AND c.relname = 'ledger_accounts'
              UNION ALL SELECT 1 FROM pg_locks w JOIN pg_locks h ON h.locktype = 'transactionid' AND h.transactionid = w.transactionid AND h.granted
              WHERE NOT w.granted AND w.locktype = 'transactionid' AND h.pid = ${tillPid}`,
          );
          return waiting.length;
        })
        .toBeGreaterThan(0);
      // The till now wants the card: the chunk must not be holding it (it used to, and the two deadlocked).
      const taken = await till.query('SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE NOWAIT', [cardAccount]).then(
        () => 'taken',
        (err: { code?: string }) => err.code,
      );
      expect(taken).toBe('taken');
      await till.query('COMMIT');
      await run;
    } finally {
      await rows.release();
      await till.end();
    }
    await runToEnd(reference);
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(await cardBalance(biz.test, to)).toBe(50_000);
  });

  it('end a running upload whose rows all ended while its runner was gone, and give back what it still held', async () => {
    const { biz, card, scope, preview } = await overThresholdFile(60_000);
    const reference = await preview();
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
    const { client, release } = await lockRows(reference);
    try {
      await approveUpload(testDb(), { ...scope, userId: APPROVER, reference });
      // As a runner that died after its last chunk committed leaves it: no row pending, the job still running, its money held.
      await client.query(
        `UPDATE upload_rows r SET status = 'failed', error_code = 'internal', finished_at = now() FROM upload_jobs j WHERE j.id = r.job_id AND j.reference = $1`,
        [reference],
      );
    } finally {
      await release();
    }
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    await expect
      .poll(
        async () => {
          await runUploadPass(testDb());
          return (await jobOf(reference)).status;
        },
        { timeout: 30_000 },
      )
      .toBe('done');
    expect(await cardBalance(biz.test, card.card_number)).toBe(60_000);
  });

  it('give back what a running upload still holds when its uploader stops it', async () => {
    const { biz, card, scope, preview } = await overThresholdFile(60_000);
    const reference = await preview();
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
    const { release } = await lockRows(reference);
    try {
      await approveUpload(testDb(), { ...scope, userId: APPROVER, reference });
      expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    } finally {
      await release();
    }
    // Stopped before its rows ran (or after some did): whatever is still held goes back, and nothing runs after.
    await cancelUpload(testDb(), { ...scope, userId: UPLOADER, reference, asApprover: false }).catch((err) => {
      if (!(err instanceof ServiceError && err.code === 'already_decided')) throw err;
    });
    const paid = (await rowsOf(reference)).filter((r) => r.status === 'succeeded').length;
    const left = (await rowsOf(reference)).filter((r) => r.status === 'pending');
    expect(left).toEqual([]);
    expect(await cardBalance(biz.test, card.card_number)).toBe(60_000 - [0, 30_000, 50_000][paid]);
    const approval = (await jobOf(reference)).approval_reference!;
    const open = await testDb().execute(sql`SELECT 1 FROM holds WHERE purpose = ${approval} AND status = 'open'`);
    expect(open.rows).toEqual([]);
  });

  it('refuse to wait when a card does not hold what its rows pay out: nothing is held, the upload stays previewed', async () => {
    const { biz, card, scope, preview } = await overThresholdFile(40_000);
    const reference = await preview();
    expect(await refusal(startUpload(testDb(), { ...scope, userId: UPLOADER, reference }))).toBe('insufficient_balance');
    expect((await jobOf(reference)).status).toBe('previewed');
    expect(await cardBalance(biz.test, card.card_number)).toBe(40_000);
  });

  it('wait as an approval request in the approvals list, decided by the approvals code: the uploader cannot approve, another teammate can', async () => {
    const { biz, card, to, scope, preview } = await overThresholdFile(60_000);
    const reference = await preview();
    await startUpload(testDb(), { ...scope, userId: UPLOADER, reference });
    const approval = (await jobOf(reference)).approval_reference!;
    const [listed] = await listApprovals(testDb(), { businessId: biz.id, mode: 'test', view: { reference: approval }, limit: 1 });
    expect(listed).toMatchObject({ kind: 'upload', status: 'awaiting_approval', currency: 'ETB', amount: 50_000, held: 50_000, uploadReference: reference });
    expect(listed.subject).toEqual({ key: 'upload', args: { file: 'p.csv', rows: 2 } });
    const waiting = await listApprovals(testDb(), { businessId: biz.id, mode: 'test', view: 'waiting', limit: 10 });
    expect(waiting.map((r) => r.reference)).toContain(approval);
    const decide = (userId: number) => approveRequest(testDb(), { businessId: biz.id, mode: 'test', userId, reference: approval });
    expect(await refusal(decide(UPLOADER))).toBe('forbidden');
    expect(await decide(APPROVER)).toMatchObject({ status: 'approved', resultReference: reference });
    expect(await refusal(decide(APPROVER))).toBe('already_decided');
    expect((await jobOf(reference)).status).not.toBe('awaiting_approval');
    await runToEnd(reference);
    expect((await rowsOf(reference)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    expect(await cardBalance(biz.test, to)).toBe(50_000);
    const audits = await testDb().execute<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE business_id = ${biz.id} AND mode = 'test' AND target = ${reference} ORDER BY id`,
    );
    expect(audits.rows.map((r) => r.action)).toEqual(['approval.requested', 'approval.approved']);
  });
});
