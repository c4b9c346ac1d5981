import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { setApprovalThreshold } from '../lib/approvals/approval-thresholds';
import { refundFromDashboard } from '../lib/approvals/dashboard-refund';
import { approveRequest } from '../lib/approvals/decide-approval';
import { verifyLedger } from '../lib/ledger/verify-ledger';
import { registerProviders } from '../lib/wire-providers';
import { CHAPA_TEST_SECRETS, LIVE_LOOPS, startLiveStack, type LiveStack } from './chapa-harness';
import { apiClient, createCard, randomPhone, testDb, type ApiClient } from './helpers';

/**
 * An approval that makes a live refund talks to Chapa only once it has
 * committed: a rollback after the operation (here forced by a trigger) must
 * leave Chapa unasked, so approving again cannot repay the payer twice.
 */

let stack: LiveStack;
let live: ApiClient;
let businessId: number;
const users: Record<'owner' | 'finance', number> = { owner: 0, finance: 0 };

beforeAll(async () => {
  stack = await startLiveStack({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), loops: LIVE_LOOPS });
  // approveRequest runs in this process: it sends to the same fake as the server does.
  Object.assign(process.env, {
    CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey,
    CHAPA_BASE_URL: `${stack.fake.url}/v1`,
    CHAPA_WEBHOOK_SECRET: CHAPA_TEST_SECRETS.webhookSecret,
    CHAPA_ENCRYPTION_KEY: CHAPA_TEST_SECRETS.encryptionKey,
    CHAPA_APPROVAL_SECRET: CHAPA_TEST_SECRETS.approvalSecret,
  });
  registerProviders();
  const biz = await stack.createBusiness('Live approvals business');
  businessId = biz.id;
  live = apiClient(biz.keys.live, stack.baseUrl);
  for (const role of ['owner', 'finance'] as const) {
    const res = await fetch(`${stack.baseUrl}/api/admin/businesses/${businessId}/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${role}-${randomUUID()}@example.com`, password: 'dashboard-pass-123', role }),
    });
    expect(res.status).toBe(201);
    users[role] = ((await res.json()) as { data: { id: number } }).data.id;
  }
  await setApprovalThreshold(testDb(), { businessId, mode: 'live', userId: users.owner, currency: 'ETB', amount: 50_000 });
});
afterAll(async () => {
  await testDb().execute(sql`DROP TRIGGER IF EXISTS approvals_live_fail ON approval_requests`);
  await testDb().execute(sql`DROP FUNCTION IF EXISTS approvals_live_fail()`);
  await stack?.stop();
});

const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 20_000, interval: 100 });
const fakeRefunds = async (txRef: string) =>
  (Object.values((await stack.fake.state()).stores.refunds ?? {}) as { txRef: string; amount: number }[]).filter((r) => r.txRef === txRef);

async function paidLive(amount: number) {
  const card = await createCard(live, 'ETB', randomPhone());
  const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount, card_number: card.card_number });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const ref = res.body.data.link_reference as string;
  const state = await stack.fake.state();
  const t = state.stores.transactions?.[ref] ?? Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === ref);
  await fetch(`${stack.fake.url}/checkout/payment/${(t as any).token}/pay`, { method: 'POST', redirect: 'manual' });
  await poll(async () => (await live.get(`/api/v1/card/payment/${ref}/status`)).body.data.status).toBe('success');
  return ref;
}

describe('a live refund made by an approval', () => {
  it('is not sent to Chapa when the approval rolls back after it, and is sent once when the approval commits', async () => {
    const ref = await paidLive(100_000);
    const asked = await refundFromDashboard(testDb(), { businessId, mode: 'live', userId: users.finance, reference: ref, amount: 60_000 });
    if (asked.sent) throw new Error('refunded without approval');
    const reference = asked.approval.reference;
    await testDb().execute(
      sql.raw(`CREATE OR REPLACE FUNCTION approvals_live_fail() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.result_reference IS NOT NULL AND NEW.reference = '${reference}' THEN RAISE EXCEPTION 'approval interrupted'; END IF; RETURN NEW; END $$`),
    );
    await testDb().execute(
      sql.raw('CREATE TRIGGER approvals_live_fail BEFORE UPDATE ON approval_requests FOR EACH ROW EXECUTE FUNCTION approvals_live_fail()'),
    );
    // Several tries: a send from inside the transaction would show in the fake on some of them.
    for (let i = 0; i < 5; i++) {
      await expect(approveRequest(testDb(), { businessId, mode: 'live', reference, userId: users.owner })).rejects.toThrow();
    }
    expect(await fakeRefunds(ref)).toEqual([]);
    const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM approval_requests WHERE reference = ${reference}`);
    expect(rows[0].status).toBe('awaiting_approval');

    await testDb().execute(sql`DROP TRIGGER approvals_live_fail ON approval_requests`);
    expect(await approveRequest(testDb(), { businessId, mode: 'live', reference, userId: users.owner })).toMatchObject({ status: 'approved' });
    await poll(async () => (await fakeRefunds(ref)).map((r) => r.amount)).toEqual([60_000]);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });
});
