import type { TestServer } from '../test-server';
import { waitFor } from '../helpers';

export type LogLine = Record<string, unknown> & { msg?: string; request_id?: string };

/** The JSON lines a server has written to its stdout and stderr so far (anything else is skipped). */
export function logLines(server: TestServer): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of server.output().split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(text));
    } catch {
      /* a line still being written */
    }
  }
  return lines;
}

/** Waits for the server's log line of the request with this id. */
export const requestLine = (server: TestServer, id: string) => waitFor(async () => logLines(server).find((l) => l.request_id === id && l.msg === 'request'));
