import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { sandboxProvider } from '../lib/providers/sandbox';
import { chapaBalancesFor } from '../lib/rails/chapa/chapa-balances';
import { chapaProvider } from '../lib/rails/chapa/chapa-provider';
import { chapaRecords } from '../lib/rails/chapa/chapa-records';
import { readChapaConfig } from '../lib/rails/chapa/config';
import { chapaTransferOf } from '../lib/rails/chapa/rail-request-view';
import { settlePayout } from '../lib/payouts/settle-payout';
import { differenceText, providerReconciliation } from '../lib/reports/provider-reconciliation';
import { reconciliationCsvFile } from '../lib/reports/reconciliation/export';
import { CHAPA_TEST_SECRETS, startLiveStack, type LiveStack } from './chapa-harness';
import { balanceOf, fakeTransfers, liveCard, payout, payoutStatus, transferSwitches } from './chapa-payout-fixtures';
import { apiClient, waitFor } from './helpers';
import { parseCsv } from './parse-csv';
import { createScratchDatabase } from './test-server';

/**
 * Live bank and wallet payouts against tools/chapa-fake over real HTTP: a
 * second app server with CHAPA_* set, its own database, retries shortened.
 */

const PROVIDER_COLUMNS = 11;
const ADMIN = 'adm_chapa_payouts_0123456789abcdef_0123';
const RETRY = { CHAPA_RETRY_BASE_MS: '300', CHAPA_RETRY_MAX_MS: '1200' };
const FAKE = { CHAPA_FAKE_TRANSFER_SETTLE_MS: '100' };

let stack: LiveStack;
let db: Db;
let endPool: () => Promise<void>;

async function railRequest(reference: string) {
  const r = await db.execute<{ state: string; attempts: number; provider_status: string | null; last_error: string | null; provider_reference: string | null }>(
    sql`SELECT r.state, j.attempts, r.provider_status, r.last_error, r.provider_reference
        FROM rail_requests r LEFT JOIN jobs j ON j.kind = 'rail_request' AND j.subject = r.reference WHERE r.reference = ${reference}`,
  );
  return r.rows[0];
}

async function payoutEvents(reference: string) {
  const r = await db.execute<{ type: string }>(sql`SELECT type FROM webhook_events WHERE subject_reference = ${reference} ORDER BY id`);
  return r.rows.map((e) => e.type);
}

/** Every ledger transaction of a payout reference, by kind. */
async function ledgerKinds(reference: string) {
  const r = await db.execute<{ kind: string }>(sql`SELECT kind FROM ledger_transactions WHERE reference = ${reference} ORDER BY id`);
  return r.rows.map((t) => t.kind);
}

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'chapa_payouts');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  stack = await startLiveStack({ databaseUrl: url, adminToken: ADMIN, env: RETRY, fakeEnv: FAKE });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await endPool?.();
});

beforeEach(async () => {
  await stack.fake.reset();
});

describe('live bank payouts through Chapa', () => {
  it('debits the card, sends one transfer with Chapa’s bank code, and settles success by verify', async () => {
    const c = await liveCard(stack);
    const res = await payout(c, 12_345, 'cbe', '1000123456789');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('PENDING');
    const ref = res.body.data.provider_reference as string;
    const debited = await balanceOf(c.live, c.cardNumber);
    expect(debited).toBeLessThanOrEqual(500_000 - 12_345);
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 15_000 }).toBe('success');
    const fake = await fakeTransfers(stack);
    expect(fake.requests[ref]).toBe(1);
    expect(fake.transfers[ref]).toMatchObject({ bankCode: 946, accountNumber: '1000123456789', currency: 'ETB', status: 'success' });
    expect(await balanceOf(c.live, c.cardNumber)).toBe(debited);
    expect(await railRequest(ref)).toMatchObject({ state: 'done', provider_status: 'success' });
    expect((await railRequest(ref)).provider_reference).toBe(fake.transfers[ref].chapaReference);
    expect(await payoutEvents(ref)).toEqual(['payout.success']);
  });

  it('maps a slug Chapa spells differently by the bank’s name, case-insensitive, and pays wallets the same way', async () => {
    const c = await liveCard(stack);
    const awash = await payout(c, 1_000, 'awash', '10001234567890');
    expect(awash.status, JSON.stringify(awash.body)).toBe(200);
    const wallet = await payout(c, 1_000, 'telebirr', '0911223344');
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(200);
    await expect.poll(async () => (await fakeTransfers(stack)).transfers[wallet.body.data.provider_reference]?.bankCode, { timeout: 10_000 }).toBe(855);
    expect((await fakeTransfers(stack)).transfers[awash.body.data.provider_reference].bankCode).toBe(656);
  });

  it('refuses a bank Chapa does not list (400 Invalid bank slug) and a wrong account length, before any debit', async () => {
    const c = await liveCard(stack);
    const boa = await payout(c, 1_000, 'boa', '12345678');
    expect(boa.status).toBe(400);
    expect(boa.body.message).toBe('Invalid bank slug');
    // Test mode answers these in the same words (tests/api/sandbox-accounts.test.ts); a wallet is held to digits of the length Chapa lists.
    for (const [slug, account, words] of [
      ['cbe', '12345', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['cbe', 'abc!@#', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['cbe', '100012345678x', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['telebirr', '091122334', 'telebirr account numbers have 10 digits.'],
      ['telebirr', '+251911223', 'telebirr account numbers have 10 digits.'],
    ]) {
      const refused = await payout(c, 1_000, slug, account);
      expect(refused.status, account).toBe(400);
      expect(refused.body).toMatchObject({ message: 'Payout request failed', error: words });
    }
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
    expect(Object.keys((await fakeTransfers(stack)).requests)).toEqual([]);
  });

  it('a transfer Chapa reports failed reverses the whole debit to the card, as in test mode', async () => {
    const c = await liveCard(stack);
    const res = await payout(c, 20_000, 'cbe', '1000123450000');
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 15_000 }).toBe('failed');
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
    expect(await ledgerKinds(ref)).toEqual(['payout_bank', 'payout_bank_reversal']);
    expect(await payoutEvents(ref)).toEqual(['payout.failed']);
    expect((await railRequest(ref)).state).toBe('done');
  });

  it('a transfer Chapa refuses outright answers 502 and gives the money back', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { refuse: { message: 'Insufficient Balance', times: 1 } });
    const res = await payout(c, 5_000, 'cbe', '1000123456789');
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expect(res.body.message).toBe('Failed to initiate payout');
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
    const [failed] = (
      await db.execute<{ reference: string; status: string; failure_reason: string }>(
        sql`SELECT p.reference, p.status, p.failure_reason FROM payouts p JOIN cards c ON c.id = p.source_card_id WHERE c.card_number = ${c.cardNumber} AND p.payout_type = 'bank'`,
      )
    ).rows;
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toContain('Insufficient Balance');
  });

  it('a batch whose answer was lost after Chapa refused one item and took the other is answered as then, and sends nothing again', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { refuse: { message: 'Insufficient Balance', times: 1, amount: '50' } });
    const item = (amount: number) => ({ card_number: c.cardNumber, amount, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Abebe Kebede' });
    const body = { payouts: [item(5_000), item(6_000)] };
    const key = `live-batch-${Date.now()}`;
    const send = () => c.live.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.results[0]).toMatchObject({ status: 'error', message: 'Failed to initiate payout' });
    expect(first.body.data.results[1]).toMatchObject({ status: 'PENDING' });
    const sent = (await fakeTransfers(stack)).requests;
    const balance = await balanceOf(c.live, c.cardNumber);
    // As a process killed after the batch's commit and its rail calls, before its answer was stored, leaves the key.
    await db.execute(sql`
      UPDATE idempotency_keys SET state = 'committed', response_status = NULL, response_body = NULL, created_at = now() - interval '2 minutes', last_committed_at = now() - interval '2 minutes'
      WHERE key = ${key}`);
    const retry = await send();
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await fakeTransfers(stack)).requests).toEqual(sent);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(balance);
  });

  it('a batch whose answer was lost before its bank item reached Chapa is answered PENDING, and the outbox sends the transfer once', async () => {
    const c = await liveCard(stack);
    // Chapa busy at the batch's own send: the transfer is still to go when the process "dies".
    await stack.fake.switches({ failures: { transfer: { mode: '503', times: 1 } } });
    const body = { payouts: [{ card_number: c.cardNumber, amount: 4_000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Abebe Kebede' }] };
    const key = `live-batch-pending-${Date.now()}`;
    const send = () => c.live.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const ref = first.body.data.results[0].provider_reference;
    expect(first.body.data.results[0]).toEqual({ provider_reference: ref, status: 'PENDING' });
    await db.execute(sql`
      UPDATE idempotency_keys SET state = 'committed', response_status = NULL, response_body = NULL, created_at = now() - interval '2 minutes', last_committed_at = now() - interval '2 minutes'
      WHERE key = ${key}`);
    const retry = await send();
    expect(retry.body).toEqual(first.body);
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 4_000);
  }, 60_000);
  it('a batch taken over by a retry while its Chapa call is still out still returns the money when Chapa then refuses', async () => {
    const c = await liveCard(stack);
    const gate = `takeover-${Date.now()}`;
    await transferSwitches(stack, { refuse: { message: 'Insufficient Balance', times: 1, gate } });
    const body = { payouts: [{ card_number: c.cardNumber, amount: 7_000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Abebe Kebede' }] };
    const key = `live-batch-takeover-${Date.now()}`;
    const send = () => c.live.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    const first = send();
    // The chunk has committed (its record is with the key) and Chapa holds the transfer's answer.
    await expect.poll(async () => Object.values((await fakeTransfers(stack)).requests).reduce((a, b) => a + b, 0) > 0, { timeout: 15_000 }).toBe(true);
    // As if the run had gone quiet for over a minute: a retry takes the key over and answers from the record.
    await db.execute(
      sql`UPDATE idempotency_keys SET created_at = now() - interval '2 minutes', last_committed_at = now() - interval '2 minutes' WHERE key = ${key}`,
    );
    const retry = await send();
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    const ref = retry.body.data.results[0].provider_reference;
    expect(retry.body.data.results[0]).toEqual({ provider_reference: ref, status: 'PENDING' });
    await stack.fake.control('/__fake/gates/open', { name: gate });
    // The first run hears the refusal: its reversal commits though the key is no longer its own.
    expect((await first).status).toBe(409);
    expect(await payoutStatus(c.live, ref)).toBe('failed');
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
    expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
  }, 60_000);
});

describe('Chapa down, slow or busy never fails a payout by itself', () => {
  for (const mode of ['503', '500', '429', 'timeout'] as const) {
    it(`POST /transfers answering ${mode}: the payout stays pending, is retried and sent once`, async () => {
      const c = await liveCard(stack);
      await stack.fake.switches({ failures: { transfer: { mode, times: 2 } } });
      const res = await payout(c, 3_000, 'cbe', '1000123456789');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const ref = res.body.data.provider_reference;
      expect(await payoutStatus(c.live, ref)).toBe('pending');
      await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
      const state = await stack.fake.state();
      const posts = state.requests.filter((r) => r.operation === 'transfer' && r.body?.reference === ref);
      expect(posts.map((p) => p.answered)).toEqual([mode === 'timeout' ? 'timeout' : Number(mode), mode === 'timeout' ? 'timeout' : Number(mode), 200]);
      // Every retry asked verify first: the earlier request may have reached Chapa.
      expect(state.requests.filter((r) => r.operation === 'transfer_verify' && r.path.includes(ref)).length).toBeGreaterThanOrEqual(2);
      expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
      expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 3_000);
    }, 60_000);
  }

  it('two app instances share the outbox: every transfer sent once while both retry through an outage', async () => {
    const second = await stack.startInstance();
    const c = await liveCard(stack);
    // Half the payouts go through each instance; the first twelve sends meet an outage, so both workers retry.
    const viaSecond = { ...c, live: apiClient(c.key, second.baseUrl) };
    await stack.fake.switches({ failures: { transfer: { mode: '503', times: 12 } } });
    const refs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await payout(i % 2 ? viaSecond : c, 500 + i, 'cbe', '1000123456789');
      expect(res.status).toBe(200);
      refs.push(res.body.data.provider_reference);
    }
    for (const ref of refs) await expect.poll(() => payoutStatus(c.live, ref), { timeout: 60_000 }).toBe('success');
    const requests = (await fakeTransfers(stack)).requests;
    expect(refs.map((r) => requests[r])).toEqual(refs.map(() => 1));
    await second.stop();
  }, 120_000);

  it('a request Chapa took but never answered is found by verify and not sent again', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { hangAfterAccept: 1 });
    const res = await payout(c, 4_000, 'dashen', '1000123456789');
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
  }, 60_000);

  it('a resend refused as a used reference, after a verify that lagged behind, asks verify again and never fails the payout', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { hangAfterAccept: 1, verifyNotFound: 1 });
    const res = await payout(c, 4_500, 'cbe', '1000123456789');
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    const fake = await fakeTransfers(stack);
    // The resend reached Chapa and was refused: one transfer, paid once, and the card debited once.
    expect(fake.requests[ref]).toBe(2);
    expect(Object.keys(fake.transfers).filter((r) => r === ref)).toHaveLength(1);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 4_500);
    expect(await ledgerKinds(ref)).toEqual(['payout_bank']);
  }, 60_000);

  it('a resend refused while verify still says not found never fails or refunds the payout: it stays sent until verify knows it', async () => {
    const c = await liveCard(stack);
    // The first send is taken but never answered; verify lags twice: before the resend (refused as a used reference) and after it.
    await transferSwitches(stack, { hangAfterAccept: 1, verifyNotFound: 2 });
    const res = await payout(c, 4_700, 'cbe', '1000123456789');
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    expect((await fakeTransfers(stack)).requests[ref]).toBe(2);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 4_700);
    expect(await ledgerKinds(ref)).toEqual(['payout_bank']);
    expect(await payoutEvents(ref)).toEqual(['payout.success']);
  }, 60_000);

  it('a transfer still unsettled a day after it was queued is flagged for a person in its Chapa panel, and stays pending', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 3_100, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await expect.poll(async () => (await railRequest(ref)).state, { timeout: 15_000 }).toBe('sent');
    expect((await chapaTransferOf(db, { businessId: c.businessId, mode: 'live', reference: ref }))?.state).toBe('sent');
    await db.execute(sql`UPDATE rail_requests SET created_at = now() - interval '25 hours' WHERE reference = ${ref}`);
    expect((await chapaTransferOf(db, { businessId: c.businessId, mode: 'live', reference: ref }))?.state).toBe('review');
    expect(await payoutStatus(c.live, ref)).toBe('pending');
  });

  it('a transfer whose job ran out of tries is dead: its Chapa panel asks a person, it stays pending, and a webhook about it wakes it', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 3_200, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await expect.poll(async () => (await railRequest(ref)).state, { timeout: 15_000 }).toBe('sent');
    // Verify keeps saying pending; two more tries are all the job has left.
    await stack.fake.switches({ verifyOverride: { [ref]: { status: 'pending' } } });
    await db.execute(sql`UPDATE jobs SET max_attempts = attempts + 2 WHERE kind = 'rail_request' AND subject = ${ref}`);
    const job = sql`SELECT state, last_error FROM jobs WHERE kind = 'rail_request' AND subject = ${ref}`;
    await expect.poll(async () => (await db.execute<{ state: string }>(job)).rows[0].state, { timeout: 20_000 }).toBe('dead');
    expect((await db.execute<{ last_error: string }>(job)).rows[0].last_error).toContain('verify says pending');
    const panel = await chapaTransferOf(db, { businessId: c.businessId, mode: 'live', reference: ref });
    expect(panel).toMatchObject({ state: 'dead', nextAttemptAt: null });
    expect(await payoutStatus(c.live, ref)).toBe('pending');
    await stack.fake.switches({ verifyOverride: { [ref]: {} } });
    await stack.fake.control('/__fake/transfers/settle', { reference: ref, status: 'success' });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 20_000 }).toBe('success');
    expect((await chapaTransferOf(db, { businessId: c.businessId, mode: 'live', reference: ref }))?.state).toBe('done');
    expect((await db.execute<{ state: string }>(job)).rows[0].state).toBe('done');
  }, 60_000);

  it('every provider request was written with its job, and a refused payout left neither', async () => {
    const c = await liveCard(stack);
    const count = async () =>
      Number((await db.execute<{ n: number }>(sql`SELECT (SELECT count(*) FROM rail_requests) + (SELECT count(*) FROM jobs) AS n`)).rows[0].n);
    const before = await count();
    const refused = await payout(c, 900_000, 'cbe', '1000123456789');
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(await count()).toBe(before);
    const unpaired = await db.execute<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM rail_requests r WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'rail_request' AND j.subject = r.reference))
           + (SELECT count(*) FROM jobs j WHERE j.kind = 'rail_request' AND NOT EXISTS (SELECT 1 FROM rail_requests r WHERE r.reference = j.subject)) AS n`);
    const requests = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM rail_requests`);
    expect(requests.rows[0].n).toBeGreaterThan(5);
    expect(Number(unpaired.rows[0].n)).toBe(0);
  });

  it('a request whose payout was reversed before it went out is closed, never sent (no payout paid after its refund)', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ failures: { transfer: { mode: '503' } } });
    const res = await payout(c, 3_300, 'cbe', '1000123456789');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ref = res.body.data.provider_reference;
    await waitFor(async () => ((await railRequest(ref)).attempts >= 1 ? true : undefined));
    // As when create-payout reversed it, or a crash fell between a reversal and closing the request.
    const [{ id }] = (await db.execute<{ id: number }>(sql`SELECT id FROM payouts WHERE reference = ${ref}`)).rows;
    await settlePayout(db, { payoutId: Number(id), outcome: 'failed', actor: { type: 'system', id: 'test' } });
    await stack.fake.switches({ failures: { transfer: { mode: '503', times: 0 } } });
    await expect.poll(async () => (await railRequest(ref)).state, { timeout: 30_000 }).toBe('done');
    expect((await fakeTransfers(stack)).requests[ref]).toBeUndefined();
    expect(await payoutStatus(c.live, ref)).toBe('failed');
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
  }, 60_000);

  it('verify failing keeps the payout pending until it answers again', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ failures: { transfer_verify: { mode: '503' } }, webhooks: { delivery: 'off' } });
    const res = await payout(c, 2_000, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await waitFor(
      async () => ((await stack.fake.state()).requests.filter((r) => r.operation === 'transfer_verify' && r.path.includes(ref)).length >= 2 ? true : undefined),
      20_000,
    );
    await waitFor(async () => ((await railRequest(ref)).last_error ? true : undefined));
    expect(await payoutStatus(c.live, ref)).toBe('pending');
    expect((await railRequest(ref)).last_error).toContain('503');
    await stack.fake.switches({ failures: { transfer_verify: { mode: '503', times: 0 } } });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
  }, 60_000);
});

describe('payout webhooks only ask verify', () => {
  it('badly signed webhooks are refused; verify still settles the payout', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ webhooks: { badSignature: true } });
    const res = await payout(c, 1_000, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await waitFor(async () => ((await stack.fake.state()).deliveries.some((d) => d.body.includes(ref) && d.status !== null) ? true : undefined));
    expect((await stack.fake.state()).deliveries.filter((d) => d.body.includes(ref)).map((d) => d.status)).toEqual([401]);
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 20_000 }).toBe('success');
    expect(await payoutEvents(ref)).toEqual(['payout.success']);
  });

  it('20 payouts one after another: each sent once; the answer and the settlement times', async () => {
    const c = await liveCard(stack, 1_000_000);
    const answered: number[] = [];
    const settled: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await payout(c, 1_000, 'cbe', '1000123456789');
      answered.push(performance.now() - started);
      await expect.poll(() => payoutStatus(c.live, res.body.data.provider_reference), { timeout: 10_000, interval: 20 }).toBe('success');
      settled.push(performance.now() - started);
      expect((await fakeTransfers(stack)).requests[res.body.data.provider_reference]).toBe(1);
    }
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1].toFixed(0);
    console.log(
      `live payout through the fake: answer p50 ${pct(answered, 50)} ms, p95 ${pct(answered, 95)} ms (debit, outbox row, POST /transfers); ` +
        `settled p50 ${pct(settled, 50)} ms, p95 ${pct(settled, 95)} ms (fake settles after 100 ms, webhook, verify)`,
    );
    expect(await balanceOf(c.live, c.cardNumber)).toBe(1_000_000 - 20_000);
  }, 120_000);

  it('duplicate webhooks settle once', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ webhooks: { copies: 3 } });
    const res = await payout(c, 1_500, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 15_000 }).toBe('success');
    await waitFor(async () => ((await stack.fake.state()).deliveries.filter((d) => d.body.includes(ref) && d.status !== null).length === 3 ? true : undefined));
    expect(await payoutEvents(ref)).toEqual(['payout.success']);
    expect(await ledgerKinds(ref)).toEqual(['payout_bank']);
  });

  it('late and out-of-order webhooks change nothing after verify settled the payout', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ webhooks: { delivery: 'hold' } });
    const ok = await payout(c, 1_000, 'cbe', '1000123456789');
    const bad = await payout(c, 1_000, 'cbe', '1000123450000');
    // No webhook arrives: the scheduled verify settles both.
    await expect.poll(() => payoutStatus(c.live, ok.body.data.provider_reference), { timeout: 20_000 }).toBe('success');
    await expect.poll(() => payoutStatus(c.live, bad.body.data.provider_reference), { timeout: 20_000 }).toBe('failed');
    const flushed = await stack.fake.control('/__fake/webhooks/flush', { order: 'reverse' });
    expect(flushed.delivered).toBe(2);
    const refs = [ok.body.data.provider_reference, bad.body.data.provider_reference];
    await waitFor(async () =>
      (await stack.fake.state()).deliveries.filter((d) => refs.some((r) => d.body.includes(r)) && d.status === 200).length === 2 ? true : undefined,
    );
    expect(await payoutEvents(ok.body.data.provider_reference)).toEqual(['payout.success']);
    expect(await payoutEvents(bad.body.data.provider_reference)).toEqual(['payout.failed']);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 1_000);
  });

  it('a success webhook that verify contradicts settles nothing; a disagreeing amount is held for a person', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 1_000, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    await stack.fake.switches({ verifyOverride: { [ref]: { status: 'pending' } } });
    await stack.fake.control('/__fake/transfers/settle', { reference: ref, status: 'success' });
    await waitFor(async () => ((await stack.fake.state()).deliveries.some((d) => d.body.includes(ref) && d.status !== null) ? true : undefined), 30_000);
    expect(await payoutStatus(c.live, ref)).toBe('pending');
    await stack.fake.switches({ verifyOverride: { [ref]: { amount: '99.00' } } });
    await waitFor(async () => ((await railRequest(ref)).last_error?.includes('verify says success') ? true : undefined), 20_000);
    expect(await payoutStatus(c.live, ref)).toBe('pending');
    await stack.fake.switches({ verifyOverride: { [ref]: {} } });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 20_000 }).toBe('success');
  }, 60_000);
});

describe('POST /api/providers/chapa/approval', () => {
  const sign = (body: string, secret: string = CHAPA_TEST_SECRETS.approvalSecret) => createHmac('sha256', secret).update(body).digest('hex');
  const approve = (body: string, signature?: string) =>
    fetch(`${stack.baseUrl}/api/providers/chapa/approval`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'chapa-signature': signature } : {}) },
      body,
    });

  it('approves only a pending payout of ours with the same amount and account, signed with the approval secret', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 2_000, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    const body = (o: Record<string, unknown>) =>
      JSON.stringify({ amount: '20.00', reference: ref, bank: 'cbe', account_name: 'Abebe Kebede', account_number: '1000123456789', ...o });
    const good = body({});
    expect((await approve(good, sign(good))).status).toBe(200);
    expect((await approve(good)).status).toBe(400);
    expect((await approve(good, sign(good, 'another-secret'))).status).toBe(400);
    // chapa-signature as HMAC of the secret itself proves nothing about the body.
    expect((await approve(good, sign(CHAPA_TEST_SECRETS.approvalSecret))).status).toBe(400);
    for (const wrong of [
      body({ amount: '20.01' }),
      body({ account_number: '1000123456788' }),
      body({ reference: 'bnk_unknown' }),
      body({ currency: 'USD' }),
      'not json',
    ]) {
      expect((await approve(wrong, sign(wrong))).status, wrong).toBe(400);
    }
    // A body past the webhook limit is refused unread.
    const huge = body({ account_name: 'x'.repeat(70_000) });
    expect((await approve(huge, sign(huge))).status).toBe(400);
    await stack.fake.control('/__fake/transfers/settle', { reference: ref, status: 'success' });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 15_000 }).toBe('success');
    expect((await approve(good, sign(good))).status).toBe(400);
  });

  it('accepts the body’s HMAC in either header when Chapa sends both (chapa-signature signing only the secret)', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 2_100, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference;
    const good = JSON.stringify({ amount: '21.00', reference: ref, bank: 'cbe', account_name: 'Abebe Kebede', account_number: '1000123456789' });
    const both = (chapa: string, x: string) =>
      fetch(`${stack.baseUrl}/api/providers/chapa/approval`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'chapa-signature': chapa, 'x-chapa-signature': x },
        body: good,
      });
    expect((await both(sign(CHAPA_TEST_SECRETS.approvalSecret), sign(good))).status).toBe(200);
    expect((await both(sign(good), sign(CHAPA_TEST_SECRETS.approvalSecret))).status).toBe(200);
    // Neither header signs the body: refused.
    expect((await both(sign(CHAPA_TEST_SECRETS.approvalSecret), sign(CHAPA_TEST_SECRETS.approvalSecret))).status).toBe(400);
    expect((await both(sign(good, 'another-secret'), 'zz')).status).toBe(400);
  });

  it('the fake asks our approval route: a signed transfer goes through, a wrongly signed one is reverted and refunded', async () => {
    const c = await liveCard(stack);
    const url = `${stack.baseUrl}/api/providers/chapa/approval`;
    await transferSwitches(stack, { approval: { url, secret: CHAPA_TEST_SECRETS.approvalSecret } });
    const ok = await payout(c, 3_000, 'cbe', '1000123456789');
    await expect.poll(() => payoutStatus(c.live, ok.body.data.provider_reference), { timeout: 15_000 }).toBe('success');
    await transferSwitches(stack, { approval: { url, secret: 'not-our-secret' } });
    const rejected = await payout(c, 3_000, 'cbe', '1000123456789');
    await expect.poll(() => payoutStatus(c.live, rejected.body.data.provider_reference), { timeout: 15_000 }).toBe('failed');
    expect((await fakeTransfers(stack)).approvals.map((a) => a.status)).toEqual([200, 400]);
    expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - 3_000);
  });
});

describe('the provider side in reports', () => {
  const config = (listCacheMs = '0') =>
    readChapaConfig({
      CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey,
      CHAPA_BASE_URL: `${stack.fake.url}/v1`,
      CHAPA_TIMEOUT_MS: '5000',
      CHAPA_LIST_CACHE_MS: listCacheMs,
    })!;
  /** Chapa as the registry hands it out, reading its records under these settings. */
  const chapa = (listCacheMs = '0') => ({ ...chapaProvider, records: chapaRecords(() => config(listCacheMs)) });
  const listReads = async () => (await stack.fake.state()).requests.filter((r) => r.operation === 'transfers_list').length;

  it('lists each live day’s Chapa transfers against our payouts, and the differences', async () => {
    const c = await liveCard(stack);
    const paid = await payout(c, 1_100, 'cbe', '1000123456789');
    const refunded = await payout(c, 1_200, 'cbe', '1000123450000');
    await expect.poll(() => payoutStatus(c.live, paid.body.data.provider_reference), { timeout: 15_000 }).toBe('success');
    await expect.poll(() => payoutStatus(c.live, refunded.body.data.provider_reference), { timeout: 15_000 }).toBe('failed');
    // Chapa pays a third, but we cannot hear of it (verify down, no webhooks): ours stays pending, a difference.
    await transferSwitches(stack, { settle: 'manual' });
    await stack.fake.switches({ failures: { transfer_verify: { mode: '503' } }, webhooks: { delivery: 'off' } });
    const lagging = await payout(c, 1_300, 'cbe', '1000123456789');
    const lagRef = lagging.body.data.provider_reference;
    await stack.fake.control('/__fake/transfers/settle', { reference: lagRef, status: 'success' });

    // A live checkout the customer pays on Chapa's page: a payment on both sides.
    const checkout = await c.live.post('/api/v1/card/payments', { type: 'hosted', amount: 2_000, card_number: c.cardNumber });
    expect(checkout.status, JSON.stringify(checkout.body)).toBeLessThan(300);
    const txRef = checkout.body.data.link_reference as string;
    const tx = Object.values((await stack.fake.state()).stores.transactions ?? {}).find((x: any) => x.txRef === txRef) as { token: string };
    await fetch(`${stack.fake.url}/checkout/payment/${tx.token}/pay`, { method: 'POST', redirect: 'manual' });
    await expect.poll(async () => (await c.live.get(`/api/v1/card/payment/${txRef}/status`)).body.data?.status, { timeout: 15_000 }).toBe('success');

    const today = new Date().toISOString().slice(0, 10);
    const report = await providerReconciliation(db, chapa(), { businessId: c.businessId, mode: 'live', timeZone: 'UTC', from: today, to: today });
    expect(report).toMatchObject({ complete: true, unread: [] });
    if (!report) throw new Error('no report');
    expect(report.days).toHaveLength(1);
    const [day] = report.days;
    expect(day).toMatchObject({ day: today, currency: 'ETB', transfers: 3, oursSettled: 1_100, theirsSettled: 1_100 + 1_300, payments: 1 });
    expect(day.oursReceived).toBeGreaterThanOrEqual(2_000);
    expect(day.theirsReceived).toBe(day.oursReceived);
    expect(day.differences).toEqual([
      expect.objectContaining({
        reference: lagRef,
        ours: { status: 'pending', amount: 1_300 },
        theirs: { status: 'success', amount: 1_300 },
        code: 'pendingButSays',
        detail: 'Still pending here; Chapa says success.',
      }),
    ]);
    // One listing unreadable: the other side is still compared, and the report names the listing that failed.
    const opts = { businessId: c.businessId, mode: 'live' as const, timeZone: 'UTC', from: today, to: today };
    await stack.fake.switches({ failures: { transfers_list: { mode: '502', times: 1 } } });
    const noTransfers = await providerReconciliation(db, chapa(), opts);
    expect(noTransfers).toMatchObject({ unread: [{ listing: 'transfers', reason: 'Chapa answered 502' }] });
    expect(noTransfers?.days).toEqual([
      expect.objectContaining({ transfers: 3, oursSettled: 1_100, theirsSettled: null, payments: 1, theirsReceived: day.oursReceived, differences: [] }),
    ]);
    await stack.fake.switches({ failures: { transactions_list: { mode: '503', times: 1 } } });
    const noPayments = await providerReconciliation(db, chapa(), opts);
    expect(noPayments).toMatchObject({ unread: [{ listing: 'payments', reason: 'Chapa answered 503' }] });
    expect(noPayments?.days).toEqual([
      expect.objectContaining({ theirsSettled: 2_400, theirsReceived: null, differences: [expect.objectContaining({ reference: lagRef })] }),
    ]);
    // The CSV carries the same provider columns, the unread listing named on the day's line.
    await stack.fake.switches({ failures: { transactions_list: { mode: '503', times: 1 } } });
    const file = await reconciliationCsvFile(db, { ...opts, provider: chapa() });
    let text = file.header;
    for await (const chunk of file.chunks) text += chunk;
    const lines = parseCsv(text);
    const dayLine = lines.find((l) => l.line === 'day');
    expect(dayLine).toMatchObject({
      chapa_payments: '1',
      chapa_transfers: '3',
      chapa_received_chapa: 'not read',
      chapa_received_chapa_minor: '',
      chapa_paid_out_ledger: '11.00',
      chapa_paid_out_chapa: '24.00',
      chapa_paid_out_chapa_minor: '2400',
    });
    expect(dayLine?.chapa_differences).toContain('Chapa’s list of transactions (our payments) could not be read (Chapa answered 503): not compared');
    expect(dayLine?.chapa_differences).toContain(`${lagRef}: Still pending here; Chapa says success.`);
    const total = lines.find((l) => l.line === 'total') ?? {};
    expect(Object.entries(total).filter(([k, v]) => k.startsWith('chapa_') && v === '')).toHaveLength(PROVIDER_COLUMNS);
    // Test mode, or no Chapa key: no provider column at all.
    expect(await providerReconciliation(db, sandboxProvider, { businessId: c.businessId, mode: 'test', timeZone: 'UTC', from: today, to: today })).toBeNull();
    expect(await providerReconciliation(db, undefined, { businessId: c.businessId, mode: 'live', timeZone: 'UTC', from: today, to: today })).toBeNull();
    expect(
      await providerReconciliation(
        db,
        { ...chapaProvider, records: chapaRecords(() => null) },
        { businessId: c.businessId, mode: 'live', timeZone: 'UTC', from: today, to: today },
      ),
    ).toBeNull();
  });

  it('reads Chapa’s listing once per cache period, not on every view, and a row changed since is compared on the next read', async () => {
    const c = await liveCard(stack);
    const first = await payout(c, 1_400, 'cbe', '1000123456789');
    await expect.poll(() => payoutStatus(c.live, first.body.data.provider_reference), { timeout: 15_000 }).toBe('success');
    const today = new Date().toISOString().slice(0, 10);
    const view = () => providerReconciliation(db, chapa('60000'), { businessId: c.businessId, mode: 'live', timeZone: 'UTC', from: today, to: today });
    const before = await listReads();
    expect(await view()).toMatchObject({ complete: true, days: [{ transfers: 1, oursSettled: 1_400, differences: [] }] });
    const afterFirst = await listReads();
    expect(afterFirst).toBeGreaterThan(before);
    // A payout settled after the cached listing was read: not reported missing at Chapa from the older picture.
    const second = await payout(c, 1_500, 'cbe', '1000123456789');
    await expect.poll(() => payoutStatus(c.live, second.body.data.provider_reference), { timeout: 15_000 }).toBe('success');
    for (let i = 0; i < 5; i++) expect(await view()).toMatchObject({ days: [{ transfers: 2, oursSettled: 2_900, differences: [] }] });
    expect(await listReads()).toBe(afterFirst);
  });

  it('a listing cut short at its page cap never reports our transfers missing at Chapa', async () => {
    const c = await liveCard(stack);
    const paid = await payout(c, 1_600, 'cbe', '1000123456789');
    const ref = paid.body.data.provider_reference;
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 15_000 }).toBe('success');
    // Forty newer transfers of other merchants on the same account, one per page: ours is past the reader's 40 pages.
    await stack.fake.switches({ webhooks: { delivery: 'off' } });
    await transferSwitches(stack, { listPerPage: 1 });
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${stack.fake.url}/v1/transfers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CHAPA_TEST_SECRETS.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          account_name: 'Other',
          account_number: '1000123456789',
          amount: '1.00',
          currency: 'ETB',
          reference: `other_${ref}_${i}`,
          bank_code: 946,
        }),
      });
      expect(res.status).toBe(200);
    }
    const today = new Date().toISOString().slice(0, 10);
    const report = await providerReconciliation(db, chapa(), { businessId: c.businessId, mode: 'live', timeZone: 'UTC', from: today, to: today });
    expect(report).toMatchObject({ complete: false, unread: [] });
    if (!report) throw new Error('no report');
    const details = report.days.flatMap((d) => d.differences.map((x) => x.detail));
    expect(report.days.flatMap((d) => d.differences.map((x) => x.code))).toEqual(['cutShort']);
    expect(details).toEqual([differenceText('cutShort', 'Chapa', '', '')]);
    expect(details.join(' ')).not.toContain('lists no');
  });

  it('hides Chapa’s balances from a business while others move live money through the same account', async () => {
    const biz = await stack.createBusiness('Alone');
    const other = await db.execute<{ shared: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM rail_requests WHERE business_id <> ${biz.id}) AS shared`);
    expect(other.rows[0].shared).toBe(true);
    expect(await chapaBalancesFor(db, config(), biz.id)).toEqual({ shown: false, why: 'shared' });
    expect(await chapaBalancesFor(db, null, biz.id)).toBeNull();
  });
});
