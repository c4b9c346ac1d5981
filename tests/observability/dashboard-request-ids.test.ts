import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../helpers';
import { PASSWORD, signInOverHttp } from '../owners-auth-helpers';
import { createScratchDatabase, startTestServer, type TestServer } from '../test-server';
import { logLines, requestLine } from './server-logs';

// A server and database of their own: the test takes away a table the delivery log reads, so the route fails unexpectedly.
let server: TestServer;
let databaseUrl: string;
let cookie: string;
beforeAll(async () => {
  databaseUrl = await createScratchDatabase(inject('databaseUrl'), 'dashboard_ids');
  server = await startTestServer({ databaseUrl, adminToken: inject('adminToken') });
  const admin = apiClient(inject('adminToken'), server.baseUrl);
  const made = await admin.post('/api/admin/businesses', { name: 'Dashboard ids' });
  const email = `owner-${Date.now()}@example.com`;
  expect((await admin.post(`/api/admin/businesses/${made.body.data.id}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
  cookie = (await signInOverHttp(email, PASSWORD, undefined, server.baseUrl)).cookie!;
  expect(cookie).toBeTruthy();
});
afterAll(async () => {
  await server?.stop();
});

describe('a dashboard route that fails unexpectedly', () => {
  it('quotes the request X-Request-Id in its answer and its log line, not an id of its own', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('ALTER TABLE webhook_attempts RENAME TO webhook_attempts_away');
    } finally {
      await client.end();
    }
    const res = await fetch(`${server.baseUrl}/api/dashboard/deliveries`, { headers: { cookie, 'x-request-id': 'dash-500-1' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('dash-500-1');
    expect(await res.json()).toMatchObject({ status: 'error', message: 'Internal server error', request_id: 'dash-500-1' });
    await requestLine(server, 'dash-500-1');
    expect(logLines(server).find((l) => l.msg === 'unexpected error answered 500')).toMatchObject({ level: 'error', request_id: 'dash-500-1' });
  });
});
