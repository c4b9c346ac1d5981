import { format } from 'node:util';
import type { Logger } from 'pino';

// Next.js colours and marks its own lines (⨯, ⚠); a log line holds the words only.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this removes.
const DECORATION = /\u001b\[[0-9;]*m|^\s*[⨯⚠✓○●▲]\s*/gu;

/**
 * Sends what libraries write with console.* (Next.js's render and route errors, a
 * stray console.log) through the logger: one JSON line per call at its level, an
 * Error among the arguments serialized (and masked) as `err`, never multi-line text.
 */
export function routeConsoleToLogger(log: Logger): void {
  const to =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const err = args.find((a): a is Error => a instanceof Error);
      const words = format(...args.filter((a) => a !== err))
        .replace(DECORATION, '')
        .trim();
      if (err) log[level]({ err }, words || err.message);
      else log[level](words);
    };
  console.debug = to('debug');
  console.log = to('info');
  console.info = to('info');
  console.warn = to('warn');
  console.error = to('error');
}
