import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { auditSentence } from '../components/audit/audit-sentence';
import { createApiKey } from '../lib/actions/developer-actions';
import { runActionAs } from '../lib/actions/define-action';
import type { DashboardSession } from '../lib/auth/session-types';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { listApiKeys } from '../lib/keys/list-api-keys';
import { adminClient, apiClient, createTestBusiness, testDb, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

let biz: TestBusiness;
let session: DashboardSession;

beforeAll(async () => {
  biz = await createTestBusiness('Key scopes');
  const email = `owner-${randomUUID()}@example.com`;
  const made = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role: 'owner' });
  expect(made.status).toBe(201);
  const userId = made.body.data.id;
  session = {
    userId,
    email,
    businessId: biz.id,
    role: 'owner',
    mode: 'test',
    timeZone: 'Africa/Addis_Ababa',
    country: 'ET',
    actor: { type: 'user', id: String(userId) },
  };
});

describe('creating a key with scopes from the dashboard', () => {
  it('answers and lists the scopes, audits them, and the API holds the key to them', async () => {
    const created = await runActionAs(createApiKey, session, { name: 'Reports job', scopes: ['read'] });
    if (!created.ok) throw new Error(created.message);
    expect(created.data.scopes).toEqual(['read']);
    const listed = (await listApiKeys(testDb(), biz.id, 'test')).find((k) => k.id === created.data.id);
    expect(listed?.scopes).toEqual(['read']);
    const full = (await listApiKeys(testDb(), biz.id, 'test')).find((k) => k.id !== created.data.id);
    expect(full?.scopes).toEqual(['read', 'cards', 'payments', 'payouts']);

    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 10, action: 'api_key' });
    const line = log.items.find((e) => e.action === 'api_key.created');
    expect(line && auditSentence(line, 'Africa/Addis_Ababa')).toBe(`Created API key “Reports job” (${created.data.prefix}…), restricted to read.`);

    const client = apiClient(created.data.key);
    expect((await client.get('/api/v1/card')).status).toBe(200);
    expect((await client.delete('/api/v1/card/4921583047261138')).body.error).toBe('This API key lacks the cards scope.');
  });

  it('gives every scope when none are sent, and refuses an empty or unknown choice on the scopes field', async () => {
    const all = await runActionAs(createApiKey, session, { name: 'Everything' });
    expect(all.ok && all.data.scopes).toEqual(['read', 'cards', 'payments', 'payouts']);
    const before = (await listApiKeys(testDb(), biz.id, 'test')).length;
    for (const [scopes, message] of [
      [[], 'Choose at least one scope.'],
      [['read', 'write'], 'Each scope must be one of read, cards, payments, payouts.'],
    ] as const) {
      const refused = await runActionAs(createApiKey, session, { name: 'Nothing', scopes });
      expect(refused).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { scopes: message } });
    }
    expect((await listApiKeys(testDb(), biz.id, 'test')).length).toBe(before);
  });
});
