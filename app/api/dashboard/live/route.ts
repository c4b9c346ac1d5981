import { requireAction } from '@/server/session';
import { errorResponse } from '@/lib/api/api-route';
import { can } from '@/lib/auth/permissions';
import { subscribeLiveUpdates } from '@/lib/webhooks/live-updates';

export const dynamic = 'force-dynamic';

/** Server-sent events: one message per verified webhook, or payout or payment created, for the signed-in business and mode. */
export async function GET(req: Request) {
  let session: Awaited<ReturnType<typeof requireAction>>;
  try {
    session = await requireAction('cards:read');
  } catch (err) {
    return errorResponse(err, 'live');
  }
  const encoder = new TextEncoder();
  let unsubscribe: (() => void | Promise<void>) | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          /* closed */
        }
      };
      // A role that cannot read payouts and payments hears that something changed, not which one.
      const seesHistory = can(session.role, 'history:read');
      unsubscribe = await subscribeLiveUpdates(session.businessId, session.mode, (update) =>
        send(`data: ${JSON.stringify(seesHistory ? update : { event: update.event, kind: update.kind, cards: update.cards })}\n\n`),
      );
      // Only now is LISTEN in place: the client catches up on what changed before this point.
      send('event: ready\ndata: {}\n\n');
      ping = setInterval(() => send(': ping\n\n'), 25_000);
      req.signal.addEventListener('abort', () => {
        clearInterval(ping);
        void unsubscribe?.();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      clearInterval(ping);
      void unsubscribe?.();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' } });
}
