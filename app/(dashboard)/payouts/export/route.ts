import { randomUUID } from 'node:crypto';
import { errorResponse } from '@/lib/api/api-route';
import { requireAction } from '@/server/session';
import { payoutCsvHeader, payoutCsvRow } from '@/lib/dashboard/payouts-csv';
import { parsePayoutFilters, payoutBatches } from '@/lib/dashboard/search-payouts';
import { getDb } from '@/lib/db/client';
import { dayIn } from '@/lib/dashboard/time-zone';

export const dynamic = 'force-dynamic';

/** The filtered payouts as CSV, streamed batch by batch as the browser reads: never the whole set in memory. */
export async function GET(req: Request) {
  let session: Awaited<ReturnType<typeof requireAction>>;
  try {
    session = await requireAction('history:export');
  } catch (err) {
    return errorResponse(err, randomUUID());
  }
  const filters = parsePayoutFilters(Object.fromEntries(new URL(req.url).searchParams));
  const batches = payoutBatches(getDb(), { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, filters });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(payoutCsvHeader()));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value.map((p) => payoutCsvRow(p, session.timeZone)).join('')));
      } catch (err) {
        console.error('payout export failed', err);
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const day = dayIn(session.timeZone, new Date());
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="payouts-${session.mode}-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
