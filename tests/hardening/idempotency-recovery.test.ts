import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/ids';
import { businessWithCard, cardBalance } from '../api/payouts-fixtures';
import { createCard, createTestBusiness, testDb, type TestBusiness } from '../helpers';

/**
 * A process that dies between committing a payout and storing its answer leaves the
 * key marked "committed" with no answer; one that dies before committing leaves it
 * "in progress". These set the key's row as such a death leaves it, then retry.
 */
let biz: TestBusiness;
let source: string;
let destination: string;
let other: TestBusiness;
beforeAll(async () => {
  ({
    biz,
    card: { card_number: source },
  } = await businessWithCard(100_000));
  destination = (await createCard(biz.test)).card_number;
  other = await createTestBusiness('Payee');
});

const payout = (key: string, body: Record<string, unknown>) => biz.test.post('/api/v1/card/payouts', body, { headers: { 'idempotency-key': key } });

/** The key's row as a crash after the payout's commit leaves it: committed, its answer never stored, its claim older than any request runs. */
const loseAnswer = (key: string, claimedAgo = '2 minutes') =>
  testDb().execute(sql`
    UPDATE idempotency_keys SET state = 'committed', response_status = NULL, response_body = NULL, created_at = now() - ${claimedAgo}::interval, last_committed_at = now() - ${claimedAgo}::interval
    WHERE key = ${key}`);

describe('an Idempotency-Key payout cut off by a crash', () => {
  it('whose payout committed replays its answer, as first given, and moves nothing again', async () => {
    for (const body of [
      { card_number: source, destination_card_number: destination, amount: 1_000 },
      { card_number: source, merchant_id: other.merchant_id, amount: 1_100 },
      { card_number: source, amount: 1_200, bank_slug: 'cbe', account_number: '1000123456123', account_name: 'Abebe Kebede' },
    ]) {
      const key = `crash-${randomUUID()}`;
      const first = await payout(key, body);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const balance = await cardBalance(biz.test, source);
      await loseAnswer(key);

      const retry = await payout(key, body);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await cardBalance(biz.test, source)).toBe(balance);
      // Stored now: later retries replay it as any answered key.
      const { rows } = await testDb().execute<{ state: string }>(sql`SELECT state FROM idempotency_keys WHERE key = ${key}`);
      expect(rows[0].state).toBe('done');
      expect((await payout(key, body)).body).toEqual(first.body);
    }
  });

  it('is not answered for while its claim is fresh: the first run may still be waiting on its rail, and may yet undo what it committed', async () => {
    const key = `crash-${randomUUID()}`;
    const body = { card_number: source, amount: 1_250, bank_slug: 'cbe', account_number: '1000123456123', account_name: 'Abebe Kebede' };
    expect((await payout(key, body)).status).toBe(200);
    await loseAnswer(key, '1 second');
    const retry = await payout(key, body);
    expect(retry.status).toBe(409);
    const { rows } = await testDb().execute<{ state: string }>(sql`SELECT state FROM idempotency_keys WHERE key = ${key}`);
    expect(rows[0].state).toBe('committed');
  });

  it('whose bank payout failed since is not replayed as pending', async () => {
    const key = `crash-${randomUUID()}`;
    const body = { card_number: source, amount: 1_275, bank_slug: 'cbe', account_number: '1000123456123', account_name: 'Abebe Kebede' };
    const first = await payout(key, body);
    expect(first.status).toBe(200);
    // As a rail refusal settles it: the payout failed after its debit committed, and the process died before answering.
    await testDb().execute(sql`UPDATE payouts SET status = 'failed' WHERE reference = ${first.body.data.provider_reference} AND business_id = ${biz.id}`);
    await loseAnswer(key);
    const retry = await payout(key, body);
    expect(retry.status, JSON.stringify(retry.body)).toBe(409);
    expect(JSON.stringify(retry.body)).not.toContain('PENDING');
  });

  it('whose transaction never committed runs again once its claim is abandoned, and moves the money once', async () => {
    const key = `crash-${randomUUID()}`;
    const body = { card_number: source, destination_card_number: destination, amount: 1_300 };
    const { rows } = await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE business_id = ${biz.id} AND mode = 'test'`);
    const fingerprint = sha256Hex(`POST /api/v1/card/payouts\n${JSON.stringify(body)}`);
    // The dead request's claim: in progress, nothing committed, older than any request runs.
    await testDb().execute(sql`
      INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, created_at, expires_at)
      VALUES (${rows[0].id}, ${key}, ${fingerprint}, 'in_progress', now() - interval '2 minutes', now() + interval '23 hours')`);
    const before = await cardBalance(biz.test, source);
    const retry = await payout(key, body);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.data).toMatchObject({ amount: 1_300, source_card_number: source, destination_card_number: destination });
    const after = await cardBalance(biz.test, source);
    expect(before - after).toBeGreaterThanOrEqual(1_300);
    expect((await payout(key, body)).body).toEqual(retry.body);
    expect(await cardBalance(biz.test, source)).toBe(after);
  });
});
