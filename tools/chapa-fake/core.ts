import { createHmac } from 'node:crypto';
import http from 'node:http';

/**
 * A stand-in for Chapa's API (v1) as a real HTTP server: the core holds the
 * state, the failure switches and the webhook sender; route modules
 * (payments.ts, and the payouts side's transfers.ts) register their handlers
 * on it. See README.md in this folder.
 */

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
}

export type FakeAnswer = { status: number; json: unknown } | { status: number; html: string } | { status: number; redirect: string };
export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** How one named operation misbehaves: hang, 5xx or 429, for `times` calls (all of them when unset). */
export interface FailureSwitch {
  mode: 'timeout' | '500' | '502' | '503' | '429' | '401';
  times?: number;
}

export interface WebhookSwitches {
  /** normal: sent at once; hold: kept until POST /__fake/webhooks/flush; off: never sent. */
  delivery: 'normal' | 'hold' | 'off';
  /** Copies of each webhook sent (duplicates). */
  copies: number;
  /** Sign with a wrong secret (both headers). */
  badSignature: boolean;
  /** Send the success webhook before the transaction is settled (verify still answers pending). */
  early: boolean;
}

export interface Switches {
  failures: Record<string, FailureSwitch>;
  webhooks: WebhookSwitches;
  /** What verify answers instead of the truth, per tx_ref or for every one ("*"): it disagrees with the webhook. */
  verifyOverride: Record<string, { amount?: string | number; currency?: string; status?: string; mode?: string }>;
  /** How long every verify takes to answer (a slow Chapa). */
  verifyDelayMs: number;
  /**
   * Per tx_ref, what the next verify calls answer, one entry per call (then the truth): its status, how long
   * it takes, or the gate it waits for (answered once POST /__fake/gates/open names it).
   */
  verifyScript: Record<string, { status?: string; delayMs?: number; gate?: string }[]>;
  /** Force the direct-charge authorization type (otp or ussd) instead of the wallet's own. */
  chargeAuthType: 'otp' | 'ussd' | null;
  /** Whether a settled checkout calls the merchant's callback_url. */
  callbacks: boolean;
}

export interface WebhookDelivery {
  id: number;
  event: string;
  body: string;
  headers: Record<string, string>;
  status: number | null;
  error?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  operation: string;
  body: unknown;
  answered: number | 'timeout';
}

const defaultSwitches = (): Switches => ({
  failures: {},
  webhooks: { delivery: 'normal', copies: 1, badSignature: false, early: false },
  verifyOverride: {},
  verifyDelayMs: 0,
  verifyScript: {},
  chargeAuthType: null,
  callbacks: true,
});

export interface FakeOptions {
  secretKey: string;
  webhookSecret: string;
  encryptionKey?: string;
  webhookUrl?: string;
}

interface Route {
  method: string;
  parts: string[];
  operation: string;
  handler: FakeHandler;
}

export class ChapaFake {
  readonly options: FakeOptions;
  switches: Switches = defaultSwitches();
  /** Route modules keep their own state here, by module name (reset by POST /__fake/reset). */
  readonly stores = new Map<string, unknown>();
  readonly requests: LoggedRequest[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  private held: { event: string; body: string }[] = [];
  private routes: Route[] = [];
  private server?: http.Server;
  private sending: Promise<void> = Promise.resolve();
  private counter = 0;
  private resetHooks: (() => void)[] = [];
  private gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  private controls = new Map<string, (body: unknown) => FakeAnswer | Promise<FakeAnswer>>();
  baseUrl = '';

  constructor(options: FakeOptions) {
    this.options = { ...options };
  }

  /** Registers a Chapa operation. `operation` names it for the failure switches and the request log. */
  route(method: string, path: string, operation: string, handler: FakeHandler): void {
    this.routes.push({ method, parts: path.split('/').filter(Boolean), operation, handler });
  }

  /** A module's state, created on first use and dropped by a reset. */
  store<T>(name: string, create: () => T): T {
    if (!this.stores.has(name)) this.stores.set(name, create());
    return this.stores.get(name) as T;
  }

  /** Registers a route module's own test control under /__fake/ (not part of Chapa's API). */
  controlRoute(method: string, path: string, handler: (body: unknown) => FakeAnswer | Promise<FakeAnswer>): void {
    this.controls.set(`${method} ${path}`, handler);
  }

  /** Resolves once the test opens the gate: an answer held until the test has set up the race it is part of. */
  gate(name: string): Promise<void> {
    let g = this.gates.get(name);
    if (!g) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      g = { opened, open };
      this.gates.set(name, g);
    }
    return g.opened;
  }

  onReset(hook: () => void): void {
    this.resetHooks.push(hook);
  }

  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}${Date.now().toString(36).toUpperCase()}${this.counter.toString(36).toUpperCase().padStart(4, '0')}`;
  }

  /** Sends a signed webhook (or holds, duplicates or mis-signs it, as the switches say). */
  sendWebhook(event: string, payload: Record<string, unknown>): void {
    const body = JSON.stringify({ event, ...payload });
    const { delivery, copies } = this.switches.webhooks;
    if (delivery === 'off') return;
    if (delivery === 'hold') {
      for (let i = 0; i < copies; i++) this.held.push({ event, body });
      return;
    }
    for (let i = 0; i < copies; i++) this.deliver(event, body);
  }

  /** Delivers held webhooks, in the order sent or reversed (out of order). */
  flush(order: 'sent' | 'reverse'): number {
    const held = order === 'reverse' ? [...this.held].reverse() : this.held;
    this.held = [];
    for (const h of held) this.deliver(h.event, h.body);
    return held.length;
  }

  /** Sends an earlier delivery's exact bytes and headers again (a replay). */
  replay(id: number): boolean {
    const d = this.deliveries.find((x) => x.id === id);
    if (!d) return false;
    this.deliver(d.event, d.body, d.headers);
    return true;
  }

  signatures(body: string, secret = this.options.webhookSecret): Record<string, string> {
    const key = this.switches.webhooks.badSignature ? `${secret}-wrong` : secret;
    return {
      'x-chapa-signature': createHmac('sha256', key).update(body).digest('hex'),
      'chapa-signature': createHmac('sha256', key).update(key).digest('hex'),
    };
  }

  private deliver(event: string, body: string, headers?: Record<string, string>): void {
    const url = this.options.webhookUrl;
    const record: WebhookDelivery = { id: this.deliveries.length + 1, event, body, headers: headers ?? this.signatures(body), status: null };
    this.deliveries.push(record);
    if (!url) {
      record.error = 'no webhook URL set';
      return;
    }
    // One at a time, in order: out-of-order delivery is a switch, never an accident.
    this.sending = this.sending.then(async () => {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...record.headers },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        record.status = res.status;
        await res.text().catch(() => '');
      } catch (err) {
        record.error = (err as Error).message;
      }
    });
  }

  /** Resolves when every webhook queued so far was answered. */
  settled(): Promise<void> {
    return this.sending;
  }

  private failureFor(operation: string): FailureSwitch | undefined {
    const sw = this.switches.failures[operation] ?? this.switches.failures['*'];
    if (!sw) return undefined;
    if (sw.times !== undefined) {
      if (sw.times <= 0) return undefined;
      sw.times -= 1;
    }
    return sw;
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = path.split('/').filter(Boolean);
    for (const route of this.routes) {
      if (route.method !== method || route.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let same = true;
      route.parts.forEach((p, i) => {
        if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(parts[i]);
        else if (p !== parts[i]) same = false;
      });
      if (same) return { route, params };
    }
    return undefined;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > 1024 * 1024) return void res.writeHead(413).end();
      chunks.push(chunk);
    }
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown = {};
    const type = req.headers['content-type'] ?? '';
    if (rawBody && type.includes('json')) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        return send(res, { status: 400, json: { message: 'Invalid JSON', status: 'failed', data: null } });
      }
    } else if (rawBody) body = Object.fromEntries(new URLSearchParams(rawBody));

    if (url.pathname.startsWith('/__fake/')) {
      const own = this.controls.get(`${req.method ?? 'GET'} ${url.pathname}`);
      return send(res, own ? await own(body) : this.control(req.method ?? 'GET', url.pathname, body));
    }

    const found = this.match(req.method ?? 'GET', url.pathname.replace(/^\/v1(?=\/)/, ''));
    if (!found) return send(res, { status: 404, json: { message: 'Not found', status: 'failed', data: null } });
    const { route, params } = found;
    const log: LoggedRequest = { method: req.method ?? 'GET', path: url.pathname + url.search, operation: route.operation, body, answered: 0 };
    this.requests.push(log);

    // The hosted page is a browser's, not an API call: no key, no failure switches.
    if (!route.operation.startsWith('page:')) {
      if (req.headers.authorization !== `Bearer ${this.options.secretKey}`) {
        log.answered = 401;
        return send(res, { status: 401, json: { message: 'Invalid API Key or User doesn\u2019t exist', status: 'failed', data: null } });
      }
      const failure = this.failureFor(route.operation);
      if (failure?.mode === 'timeout') {
        log.answered = 'timeout';
        // Never answered: the client's own timeout decides; the socket is closed later.
        setTimeout(() => res.destroy(), 120_000).unref();
        return;
      }
      if (failure) {
        log.answered = Number(failure.mode);
        return send(res, {
          status: Number(failure.mode),
          json: {
            message: failure.mode === '429' ? 'Too many requests' : failure.mode === '401' ? 'Invalid API Key' : 'Internal server error',
            status: 'failed',
            data: null,
          },
        });
      }
    }
    const answer = await route.handler({ method: log.method, path: url.pathname, params, query: url.searchParams, body, rawBody, headers: req.headers });
    log.answered = answer.status;
    send(res, answer);
  }

  /** Test controls: switches, state, held webhooks. Not part of Chapa's API. */
  private control(method: string, path: string, body: unknown): FakeAnswer {
    // biome-ignore lint/suspicious/noExplicitAny: test controls take loose JSON
    const b = (body ?? {}) as Record<string, any>;
    if (method === 'POST' && path === '/__fake/switches') {
      this.switches = {
        failures: { ...this.switches.failures, ...(b.failures ?? {}) },
        webhooks: { ...this.switches.webhooks, ...(b.webhooks ?? {}) },
        verifyOverride: { ...this.switches.verifyOverride, ...(b.verifyOverride ?? {}) },
        verifyDelayMs: Number(b.verifyDelayMs ?? this.switches.verifyDelayMs) || 0,
        verifyScript: { ...this.switches.verifyScript, ...(b.verifyScript ?? {}) },
        chargeAuthType: b.chargeAuthType !== undefined ? b.chargeAuthType : this.switches.chargeAuthType,
        callbacks: b.callbacks !== undefined ? b.callbacks !== false : this.switches.callbacks,
      };
      return { status: 200, json: this.switches };
    }
    if (method === 'POST' && path === '/__fake/config') {
      if (typeof b.webhookUrl === 'string') this.options.webhookUrl = b.webhookUrl;
      return { status: 200, json: { webhookUrl: this.options.webhookUrl ?? null } };
    }
    if (method === 'POST' && path === '/__fake/reset') {
      this.switches = defaultSwitches();
      this.held = [];
      // Nothing stays held past a test: an answer still waiting on a gate goes out now.
      for (const g of this.gates.values()) g.open();
      this.gates.clear();
      for (const hook of this.resetHooks) hook();
      return { status: 200, json: { ok: true } };
    }
    if (method === 'POST' && path === '/__fake/gates/open') {
      void this.gate(String(b.name));
      this.gates.get(String(b.name))!.open();
      return { status: 200, json: {} };
    }
    if (method === 'POST' && path === '/__fake/webhooks/flush')
      return { status: 200, json: { delivered: this.flush(b.order === 'reverse' ? 'reverse' : 'sent') } };
    if (method === 'POST' && path === '/__fake/webhooks/replay') return { status: this.replay(Number(b.id)) ? 200 : 404, json: {} };
    if (method === 'POST' && path === '/__fake/webhooks/send') {
      // A hand-made event, signed like the real ones (tests use it for stale and forged-looking events).
      this.sendWebhook(String(b.event), (b.payload ?? {}) as Record<string, unknown>);
      return { status: 200, json: {} };
    }
    if (method === 'GET' && path === '/__fake/state') {
      return {
        status: 200,
        json: {
          requests: this.requests,
          deliveries: this.deliveries,
          held: this.held.length,
          switches: this.switches,
          stores: this.storesAsJson(),
        },
      };
    }
    return { status: 404, json: { message: 'unknown control' } };
  }

  /** Module stores as JSON: Maps become objects, functions are left out. */
  private storesAsJson(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of this.stores) {
      if (typeof value === 'function') continue;
      out[name] = value instanceof Map ? Object.fromEntries(value) : value;
    }
    return out;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        console.error('chapa-fake:', err);
        if (!res.headersSent) send(res, { status: 500, json: { message: 'fake crashed', status: 'failed' } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const address = this.server.address() as { port: number };
    this.baseUrl = `http://${host}:${address.port}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function send(res: http.ServerResponse, answer: FakeAnswer): void {
  if ('redirect' in answer) return void res.writeHead(answer.status, { location: answer.redirect }).end();
  if ('html' in answer) return void res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
  const text = JSON.stringify(answer.json);
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
}
