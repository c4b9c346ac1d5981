import { describe, expect, inject, it } from 'vitest';
import { startTestServer } from '../test-server';
import { logLines } from './server-logs';

describe('a clean SIGTERM', () => {
  it('logs JSON lines only, none at error level and none naming a finished request, while the embedded PostgreSQL stops', async () => {
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
    // The embedded server may stop beside the drain and end connections still open: each is one warn line naming no request.
    const ended = lines.filter((l) => /administrator command/.test(JSON.stringify(l)));
    for (const l of ended) expect(l).toMatchObject({ level: 'warn', msg: 'postgres ended an idle connection' });
    expect(ended.filter((l) => l.request_id)).toEqual([]);
    // After its answer a request names no line but its own.
    expect(lines.filter((l) => ids.includes(l.request_id ?? '') && l.msg !== 'request')).toEqual([]);
  }, 180_000);
});
