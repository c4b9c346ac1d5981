import { describe, expect, inject, it } from 'vitest';
import { startTestServer } from '../test-server';
import { logLines } from './server-logs';

describe('a clean SIGTERM', () => {
  it('logs JSON lines only, none at error level and none naming a finished request, with the embedded PostgreSQL stopping after the pools', async () => {
    // No DATABASE_URL: the server runs its own PostgreSQL, which ends every connection still open when it stops.
    const server = await startTestServer({ databaseUrl: '', adminToken: inject('adminToken') });
    const ids: string[] = [];
    // Requests that open connections in the request pool, each under its own id, all finished before the signal.
    for (let i = 0; i < 6; i++) {
      const id = `shutdown-${i}`;
      ids.push(id);
      const answers = await Promise.all(
        ['/api/ready', '/api/v1/banks', '/login'].map((p) =>
          fetch(`${server.baseUrl}${p}`, { headers: { 'x-request-id': id, authorization: 'Bearer sk_test_nothing' } }),
        ),
      );
      for (const a of answers) await a.text();
    }
    const exited = new Promise<number | null>((r) => server.process.once('exit', (code) => r(code)));
    server.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    const text = server.output();
    const notJson = text.split('\n').filter((l) => l.trim() && !l.startsWith('{'));
    expect(notJson).toEqual([]);
    const lines = logLines(server);
    expect(lines.some((l) => /draining/.test(String(l.msg)))).toBe(true);
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    expect(text).not.toContain('terminating connection due to administrator command');
    // After its answer a request names no line but its own.
    expect(lines.filter((l) => ids.includes(l.request_id ?? '') && l.msg !== 'request')).toEqual([]);
  }, 180_000);
});
