import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, startTestServer, type TestServer } from './test-server';

/** The demo business's sign-in and live API key go to the log: a production instance must not make it unasked. */
describe('npm start on an empty database', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.stop());

  async function businesses(databaseUrl: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<{ name: string }>('SELECT name FROM businesses')).rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  }

  it('under NODE_ENV=production makes no business and prints no credentials', async () => {
    const databaseUrl = await createScratchDatabase(inject('databaseUrl'), 'seed_production');
    server = await startTestServer({ databaseUrl, adminToken: inject('adminToken'), loops: [] });
    expect(await businesses(databaseUrl)).toEqual([]);
    expect(server.output()).not.toMatch(/live API key|owner@demo\.test/);
  });

  it('under NODE_ENV=production with SEED_DEMO=1 makes the demo business once and prints its sign-in', async () => {
    const databaseUrl = await createScratchDatabase(inject('databaseUrl'), 'seed_asked');
    server = await startTestServer({ databaseUrl, adminToken: inject('adminToken'), env: { SEED_DEMO: '1' }, loops: [] });
    expect(await businesses(databaseUrl)).toEqual(['Demo Coffee']);
    expect(server.output()).toMatch(/sign in {7}owner@demo\.test \/ \S+/);
  });
});
