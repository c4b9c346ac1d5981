import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createCard, createTestBusiness, waitFor } from '../helpers';
import { freePort, startTestServer, type TestServer } from '../test-server';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
}

/** A real OTLP/HTTP receiver: keeps every span posted to /v1/traces (JSON encoding) and the raw bodies. */
async function startReceiver() {
  const spans: Span[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push(body);
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body);
        for (const rs of parsed.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) {
              const attributes = Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]]));
              spans.push({ ...s, scope: ss.scope?.name, attributes });
            }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, spans, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const PROBE = path.join(import.meta.dirname, 'loaded-modules.cjs');
const probeEnv = (dir: string) => ({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(), LOADED_MODULES_DIR: dir });

/** The OpenTelemetry packages (apart from the no-op API, which Next.js loads whenever it is installed) that the server's processes loaded. */
function sdkModulesLoaded(dir: string): string[] {
  const files = fs.readdirSync(dir).flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
  return [...new Set(files.map((f) => /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(f)?.[1]).filter((p): p is string => !!p && p !== '@opentelemetry/api'))];
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let traced: TestServer;
let plain: TestServer;
const tracedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-traced-'));
const plainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-plain-'));
beforeAll(async () => {
  receiver = await startReceiver();
  const common = { databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken') };
  [traced, plain] = await Promise.all([
    startTestServer({ ...common, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', ...probeEnv(tracedDir) } }),
    startTestServer({ ...common, env: probeEnv(plainDir) }),
  ]);
});
afterAll(async () => {
  await traced?.stop();
  await plain?.stop();
  await receiver?.close();
  for (const dir of [tracedDir, plainDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('OpenTelemetry traces', () => {
  it('with OTEL_EXPORTER_OTLP_ENDPOINT, a request arrives as a server span with its PostgreSQL queries under it, the card number masked', async () => {
    const biz = await createTestBusiness('Traces');
    const card = await createCard(biz.test);
    const res = await apiClient(biz.keys.test, traced.baseUrl).get(`/api/v1/card/${card.card_number}?phone=%2B251911234567`);
    expect(res.status).toBe(200);
    const request = await waitFor(async () =>
      receiver.spans.find(
        (s) =>
          s.kind === 2 &&
          s.scope === '@opentelemetry/instrumentation-http' &&
          String(s.attributes['http.target'] ?? s.attributes['url.path']).startsWith('/api/v1/card/'),
      ),
    );
    expect(request.attributes['http.method'] ?? request.attributes['http.request.method']).toBe('GET');
    expect(request.attributes['http.status_code'] ?? request.attributes['http.response.status_code']).toBe(200);
    expect(String(request.attributes['http.target'] ?? request.attributes['url.path'])).toMatch(/^\/api\/v1\/card\/\[redacted\]/);
    const queries = await waitFor(async () => {
      const found = receiver.spans.filter((s) => s.traceId === request.traceId && s.scope === '@opentelemetry/instrumentation-pg');
      return found.length > 0 ? found : undefined;
    });
    expect(queries.some((q) => /SELECT/i.test(String(q.attributes['db.statement'] ?? q.attributes['db.query.text'])))).toBe(true);
    expect(receiver.bodies.join('\n')).not.toContain(card.card_number);
    expect(receiver.bodies.join('\n')).not.toContain('251911234567');
    expect(receiver.bodies.join('\n')).not.toContain(biz.keys.test);
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT, the SDK is loaded; without it, none of it', async () => {
    // Some traffic on the plain server, so it has done what a server does.
    expect((await fetch(`${plain.baseUrl}/api/health`)).status).toBe(200);
    await traced.stop();
    await plain.stop();
    expect(sdkModulesLoaded(tracedDir)).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-pg', '@opentelemetry/exporter-trace-otlp-http']),
    );
    expect(sdkModulesLoaded(plainDir)).toEqual([]);
    // The plain server wrote its probe: the test did look at the server's modules.
    expect(fs.readdirSync(plainDir).length).toBeGreaterThan(0);
  });
});
