import { randomUUID } from 'node:crypto';
import http from 'node:http';

/**
 * A stand-in for AfroMessage's send API as a real HTTP server (README.md in this folder): `GET` or `POST /api/send`
 * with `Authorization: Bearer <token>`, fields from (identifier id), sender, to, message, callback as a query string
 * or a JSON body; answers as AfroMessage does, misbehaves per number or for every number as the switches say, and
 * calls each accepted message's callback with its delivery report.
 */

/** How sends to one number (or "*") go: a refusal in AfroMessage's words, an HTTP failure, or no answer. */
export interface NumberSwitch {
  mode: 'error' | '401' | '500' | '502' | '503' | '429' | 'timeout' | 'accept_then_hang' | 'accept_then_502';
  /** For error: the words of response.errors. */
  errors?: string[];
  /** This many sends only (then normal again); every send when unset. */
  times?: number;
}

export interface Switches {
  numbers: Record<string, NumberSwitch>;
  /** The status word each callback reports, per number or "*" (Delivered unless set); "off" sends none. */
  callbackStatus: Record<string, string>;
  callbackDelayMs: number;
}

export interface ReceivedMessage {
  message_id: string;
  via: 'GET' | 'POST';
  from: string;
  sender: string;
  to: string;
  message: string;
  callback: string;
  at: string;
}

export interface LoggedSend {
  via: 'GET' | 'POST';
  to: string;
  answered: number | 'timeout';
}

export interface CallbackCall {
  url: string;
  message_id: string;
  status: string;
  answered: number | null;
  error?: string;
}

const defaults = (): Switches => ({ numbers: {}, callbackStatus: {}, callbackDelayMs: 20 });

export interface AfroMessageFakeOptions {
  token: string;
  /** When set, the only sender name accepted (AfroMessage refuses an unapproved one). */
  sender?: string;
}

export class AfroMessageFake {
  switches: Switches = defaults();
  readonly messages: ReceivedMessage[] = [];
  readonly sends: LoggedSend[] = [];
  readonly callbacks: CallbackCall[] = [];
  private server?: http.Server;
  private hanging = new Set<http.ServerResponse>();

  constructor(readonly options: AfroMessageFakeOptions) {}

  private switchFor(to: string): NumberSwitch | undefined {
    const key = to in this.switches.numbers ? to : '*';
    const sw = this.switches.numbers[key];
    if (!sw) return undefined;
    if (sw.times !== undefined) {
      if (sw.times <= 0) return undefined;
      sw.times -= 1;
    }
    return sw;
  }

  private answer(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private hang(res: http.ServerResponse) {
    this.hanging.add(res);
    res.on('close', () => this.hanging.delete(res));
  }

  private async send(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: string) {
    const via = req.method === 'GET' ? 'GET' : 'POST';
    let fields: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (via === 'POST' && raw.trim()) {
      try {
        fields = { ...fields, ...(JSON.parse(raw) as Record<string, unknown>) };
      } catch {
        return this.answer(res, 400, { acknowledge: 'error', response: { errors: ['The body is not JSON.'] } });
      }
    }
    const text = (k: string) => (typeof fields[k] === 'string' ? (fields[k] as string) : fields[k] === undefined ? '' : String(fields[k]));
    const to = text('to');
    const log: LoggedSend = { via, to, answered: 'timeout' };
    this.sends.push(log);
    const done = (status: number, body: unknown) => {
      log.answered = status;
      this.answer(res, status, body);
    };
    if (req.headers.authorization !== `Bearer ${this.options.token}`) return done(401, { acknowledge: 'error', response: { errors: ['Unauthorized'] } });
    const sw = this.switchFor(to);
    if (sw?.mode === 'timeout') return this.hang(res);
    if (sw && /^\d+$/.test(sw.mode)) return done(Number(sw.mode), { acknowledge: 'error', response: { errors: [`fake ${sw.mode}`] } });
    const errors: string[] = [];
    if (!/^\+?\d{9,15}$/.test(to)) errors.push('Invalid phone number');
    if (!text('message')) errors.push('Message is required');
    if (this.options.sender && text('sender') !== this.options.sender) errors.push(`Unknown sender: ${text('sender')}`);
    if (sw?.mode === 'error') errors.push(...(sw.errors ?? ['Insufficient credit']));
    if (errors.length > 0) return done(200, { acknowledge: 'error', response: { errors } });
    const message: ReceivedMessage = {
      message_id: randomUUID(),
      via,
      from: text('from'),
      sender: text('sender'),
      to,
      message: text('message'),
      callback: text('callback'),
      at: new Date().toISOString(),
    };
    this.messages.push(message);
    this.scheduleCallback(message);
    if (sw?.mode === 'accept_then_hang') return this.hang(res);
    // A gateway in front of AfroMessage failing after AfroMessage took the message.
    if (sw?.mode === 'accept_then_502') return done(502, 'Bad Gateway');
    done(200, { acknowledge: 'success', response: { status: 'Send', message_id: message.message_id, message: message.message, to } });
  }

  private scheduleCallback(m: ReceivedMessage) {
    const status = this.switches.callbackStatus[m.to] ?? this.switches.callbackStatus['*'] ?? 'Delivered';
    if (!m.callback || status === 'off') return;
    const call: CallbackCall = { url: m.callback, message_id: m.message_id, status, answered: null };
    this.callbacks.push(call);
    setTimeout(async () => {
      try {
        const url = new URL(m.callback);
        url.searchParams.set('status', status);
        url.searchParams.set('message_id', m.message_id);
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        call.answered = res.status;
        await res.text();
      } catch (err) {
        call.error = (err as Error).message;
      }
    }, this.switches.callbackDelayMs).unref?.();
  }

  private control(path: string, body: Record<string, unknown>): unknown {
    if (path === '/__fake/switches') {
      const s = body as Partial<Switches>;
      this.switches = {
        numbers: { ...this.switches.numbers, ...s.numbers },
        callbackStatus: { ...this.switches.callbackStatus, ...s.callbackStatus },
        callbackDelayMs: s.callbackDelayMs ?? this.switches.callbackDelayMs,
      };
      return this.switches;
    }
    if (path === '/__fake/reset') {
      this.switches = defaults();
      this.messages.length = 0;
      this.sends.length = 0;
      this.callbacks.length = 0;
      for (const res of this.hanging) res.destroy();
      return { reset: true };
    }
    return undefined;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/api/send' && (req.method === 'GET' || req.method === 'POST')) return this.send(req, res, url, raw);
    if (url.pathname === '/__fake/state' && req.method === 'GET') {
      return this.answer(res, 200, { messages: this.messages, sends: this.sends, callbacks: this.callbacks, switches: this.switches });
    }
    if (url.pathname.startsWith('/__fake/') && req.method === 'POST') {
      const answer = this.control(url.pathname, raw.trim() ? (JSON.parse(raw) as Record<string, unknown>) : {});
      if (answer !== undefined) return this.answer(res, 200, answer);
    }
    this.answer(res, 404, { acknowledge: 'error', response: { errors: ['Not found'] } });
  }

  listen(port: number, host = '127.0.0.1'): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err) => this.answer(res, 500, { acknowledge: 'error', response: { errors: [String(err)] } }));
    });
    return new Promise((resolve) => {
      this.server!.listen(port, host, () => {
        const addr = this.server!.address() as { port: number };
        resolve(`http://${host}:${addr.port}`);
      });
    });
  }

  close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
