import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import { currentRequest } from './request-context';
import { REDACTED, scrub } from './scrub';

/** Keys whose values never reach a log line: at the top of a line, or in its headers, body or input. */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'card_number',
  'destination_card_number',
  'phone_number',
  'api_key',
  'secret',
  'previous_secret',
  'token',
  'password',
  'otp',
];
// Named paths only: wildcard paths cost pino about 19 µs a line, eight times the line itself (bench/observability).
const REDACT_PATHS = SECRET_KEYS.flatMap((k) => ['', 'headers', 'body', 'input'].map((under) => (under ? `${under}["${k}"]` : `["${k}"]`)));

function scrubError(err: unknown): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? scrub(err) : err;
  const s = pino.stdSerializers.err(err);
  return { type: s.type, message: scrub(s.message), stack: scrub(s.stack), ...('code' in err ? { code: err.code } : {}) };
}

function pretty(): boolean {
  if (process.env.NODE_ENV !== 'development' && !/^(1|true|yes)$/i.test(process.env.LOG_PRETTY ?? '')) return false;
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

function createLogger(): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL || 'info',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: scrubError, error: scrubError },
    // Every line written while a request is being answered names it.
    mixin: () => {
      const r = currentRequest();
      return r ? { request_id: r.id } : {};
    },
    hooks: {
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) if (typeof args[i] === 'string') args[i] = scrub(args[i] as string);
        method.apply(this, args as Parameters<typeof method>);
      },
    },
  };
  if (pretty()) return pino({ ...options, transport: { target: 'pino-pretty' } });
  // Lines wait in memory while stdout's reader is slow, up to 16 MB; past that they are dropped, never the process's memory.
  return pino(options, pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 }));
}

// One logger for the custom server and Next.js's bundle of this module, so their lines never interleave mid-line.
const global = globalThis as unknown as { __giftcardLogger?: Logger };

global.__giftcardLogger ??= createLogger();

export const logger: Logger = global.__giftcardLogger;
