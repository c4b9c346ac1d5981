import { errorResponse } from '@/lib/api/api-route';
import type { Permission } from '@/lib/auth/permissions';
import type { DashboardSession } from '@/lib/auth/session-types';
import { dayIn } from '@/lib/time-zone';
import { logger } from '@/lib/observability/logger';
import { requestIdOf } from '@/lib/observability/request-context';
import { headers } from 'next/headers';
import { requireAction } from './session';

/** A CSV file for the dashboard: its header line, then text chunks (a batch of lines each) as the reader asks for them. */
export interface CsvFile {
  /** The file's name before "-<mode>-<day>.csv". */
  name: string;
  header: string;
  chunks: AsyncGenerator<string, void, undefined>;
}

/**
 * Streams a CSV export to a signed-in user with the permission: one chunk is
 * read only when the browser asks for more, so no export is ever held in memory
 * whole, and a closed download stops the query.
 */
export async function csvExport(permission: Permission, build: (session: DashboardSession) => CsvFile | Promise<CsvFile>): Promise<Response> {
  let session: DashboardSession;
  let file: CsvFile;
  try {
    session = await requireAction(permission);
    file = await build(session);
  } catch (err) {
    return errorResponse(err, requestIdOf(await headers()));
  }
  const encoder = new TextEncoder();
  const { chunks } = file;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(file.header));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        logger.error({ err }, `${file.name} export failed`);
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const day = dayIn(session.timeZone, new Date());
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${file.name}-${session.mode}-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
