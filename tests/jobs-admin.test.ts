import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { startLiveStack, type LiveStack } from './chapa-harness';
import { fakeTransfers, liveCard, payout, payoutStatus, transferSwitches } from './chapa-payout-fixtures';
import { apiClient, type ApiClient } from './helpers';
import { createScratchDatabase } from './test-server';

/**
 * The back office's dead letters over real HTTP (GET /api/admin/jobs,
 * POST /api/admin/jobs/{id}/retry) on a live stack against tools/chapa-fake:
 * a retried rail request job runs again, once, and never sends twice.
 */

const ADMIN = 'adm_jobs_admin_0123456789abcdef_01234567';
const RETRY = { CHAPA_RETRY_BASE_MS: '300', CHAPA_RETRY_MAX_MS: '1200' };

let stack: LiveStack;
let db: Db;
let endPool: () => Promise<void>;
let admin: ApiClient;

const jobRow = async (ref: string) =>
  (
    await db.execute<{ id: number; state: string; attempts: number; max_attempts: number; locked_until: string | null }>(
      sql`SELECT id::int AS id, state, attempts, max_attempts, locked_until FROM jobs WHERE kind = 'rail_request' AND subject = ${ref}`,
    )
  ).rows[0];

/** Gives the job of a payout one more try than it has had, once its current try is settled, and waits for it to die. */
async function killJob(ref: string) {
  await expect
    .poll(
      async () => {
        const j = await jobRow(ref);
        return j.attempts >= 1 && j.locked_until === null;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await db.execute(sql`UPDATE jobs SET max_attempts = attempts + 1 WHERE kind = 'rail_request' AND subject = ${ref} AND state = 'pending'`);
  await expect.poll(async () => (await jobRow(ref)).state, { timeout: 20_000 }).toBe('dead');
  return jobRow(ref);
}

const transferPosts = async (ref: string) =>
  (await stack.fake.state()).requests.filter((r) => r.operation === 'transfer' && r.body?.reference === ref).map((r) => r.answered);

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'jobs_admin');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  stack = await startLiveStack({ databaseUrl: url, adminToken: ADMIN, env: RETRY, fakeEnv: { CHAPA_FAKE_TRANSFER_SETTLE_MS: '100' } });
  admin = apiClient(ADMIN, stack.baseUrl);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await endPool?.();
});

beforeEach(async () => {
  await stack.fake.reset();
});

describe('dead jobs in the back office', () => {
  it('a rail request job that died before Chapa took it is listed, and retried by hand it is sent once and the payout paid', async () => {
    const c = await liveCard(stack);
    await stack.fake.switches({ failures: { transfer: { mode: '503', times: 1_000 } } });
    const res = await payout(c, 2_500, 'cbe', '1000123456789');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ref = res.body.data.provider_reference as string;
    const dead = await killJob(ref);

    expect((await apiClient(undefined, stack.baseUrl).get('/api/admin/jobs?state=dead')).status).toBe(401);
    const list = await admin.get(`/api/admin/jobs?state=dead&kind=rail_request&business_id=${c.businessId}&limit=5`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.items[0]).toMatchObject({
      id: dead.id,
      kind: 'rail_request',
      subject: ref,
      business_id: c.businessId,
      mode: 'live',
      state: 'dead',
      attempts: dead.attempts,
      max_attempts: dead.attempts,
    });
    expect(list.body.data.items[0].last_error).toBeTruthy();
    expect(list.body.data.items[0].finished_at).not.toBeNull();
    // All businesses by default, and the pending list does not have it.
    expect((await admin.get('/api/admin/jobs')).body.data.items.map((j: { subject: string }) => j.subject)).toContain(ref);
    expect((await admin.get(`/api/admin/jobs?state=pending&business_id=${c.businessId}`)).body.data.total).toBe(0);
    expect((await admin.get('/api/admin/jobs?state=gone')).status).toBe(400);

    const postsBefore = await transferPosts(ref);
    expect(postsBefore.every((a) => a === 503)).toBe(true);
    expect(await payoutStatus(c.live, ref)).toBe('pending');
    await stack.fake.switches({ failures: { transfer: { mode: '503', times: 0 } } });

    const retried = await admin.post(`/api/admin/jobs/${dead.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ id: dead.id, state: 'pending', attempts: 0, finished_at: null });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    // One more POST /transfers, answered; Chapa holds the transfer once.
    expect((await transferPosts(ref)).slice(postsBefore.length)).toEqual([200]);
    expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
    await expect.poll(async () => (await jobRow(ref)).state, { timeout: 15_000 }).toBe('done');

    const audit = await db.execute<{ actor_type: string; target: string; business_id: number; details: { job_id: number } }>(
      sql`SELECT actor_type, target, business_id, details FROM audit_log WHERE action = 'job.retried' AND target = ${`rail_request:${ref}`}`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_type: 'admin', business_id: c.businessId, details: { job_id: dead.id } });
  }, 90_000);

  it('a dead job of a transfer Chapa already took is verified when retried, never sent again; two retries at once start it once', async () => {
    const c = await liveCard(stack);
    await transferSwitches(stack, { settle: 'manual' });
    const res = await payout(c, 2_600, 'cbe', '1000123456789');
    const ref = res.body.data.provider_reference as string;
    await expect.poll(async () => (await fakeTransfers(stack)).requests[ref], { timeout: 15_000 }).toBe(1);
    await stack.fake.switches({ verifyOverride: { [ref]: { status: 'pending' } } });
    const dead = await killJob(ref);

    const both = await Promise.all([admin.post(`/api/admin/jobs/${dead.id}/retry`, {}), admin.post(`/api/admin/jobs/${dead.id}/retry`, {})]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ status: 'error', message: 'Already decided' });
    expect((await admin.post(`/api/admin/jobs/${dead.id}/retry`, { max_attempts: 0 })).status).toBe(400);
    expect((await admin.post('/api/admin/jobs/999999999/retry')).status).toBe(404);
    expect((await admin.get(`/api/admin/jobs/${dead.id}/retry`)).status).toBe(405);

    // The retried job asks verify (still pending) and waits; settled at Chapa, it pays out. Never a second send.
    await expect.poll(async () => (await jobRow(ref)).attempts, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await stack.fake.switches({ verifyOverride: { [ref]: {} } });
    await stack.fake.control('/__fake/transfers/settle', { reference: ref, status: 'success' });
    await expect.poll(() => payoutStatus(c.live, ref), { timeout: 30_000 }).toBe('success');
    expect((await fakeTransfers(stack)).requests[ref]).toBe(1);
    expect(await transferPosts(ref)).toEqual([200]);
    const audits = await db.execute(sql`SELECT 1 FROM audit_log WHERE action = 'job.retried' AND target = ${`rail_request:${ref}`}`);
    expect(audits.rows).toHaveLength(1);
  }, 90_000);
});
