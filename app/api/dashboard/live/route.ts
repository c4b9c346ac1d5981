import { requireAction } from '@/server/session';
import { errorResponse } from '@/lib/api/api-route';
import { requestIdOf } from '@/lib/observability/request-context';
import { requestAddress } from '@/lib/api/client-address';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { whenDraining } from '@/lib/lifecycle/instance-state';
import { liveSessionKey, takeLiveStream } from '@/lib/webhooks/live-stream-limits';
import { subscribeLiveUpdates } from '@/lib/webhooks/live-updates';

export const dynamic = 'force-dynamic';

/** Server-sent events: one message per verified webhook, or payout or payment created, for the signed-in business and mode. */
export async function GET(req: Request) {
  let session: Awaited<ReturnType<typeof requireAction>>;
  let release: () => void;
  try {
    session = await requireAction('cards:read');
    release = await takeLiveStream(getDb(), liveSessionKey(req.headers.get('cookie'), session.userId), requestAddress(req.headers));
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
  const encoder = new TextEncoder();
  let unsubscribe: (() => void | Promise<void>) | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  let forgetDrain: (() => void) | undefined;
  // Every way a stream ends comes here: its slot, listener and ping go with it, once.
  const stop = () => {
    release();
    forgetDrain?.();
    clearInterval(ping);
    const u = unsubscribe;
    unsubscribe = undefined;
    void u?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          /* closed */
        }
      };
      req.signal.addEventListener('abort', () => {
        stop();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
      // A role that cannot read payouts and payments hears that something changed, not which one.
      const seesHistory = can(session.role, 'history:read');
      try {
        unsubscribe = await subscribeLiveUpdates(session.businessId, session.mode, (update) =>
          send(`data: ${JSON.stringify(seesHistory ? update : { event: update.event, kind: update.kind, cards: update.cards })}\n\n`),
        );
      } catch (err) {
        stop();
        throw err;
      }
      // A client gone while LISTEN was being set up is not listened for.
      if (req.signal.aborted) return stop();
      // Only now is LISTEN in place: the client catches up on what changed before this point.
      send('event: ready\ndata: {}\n\n');
      ping = setInterval(() => send(': ping\n\n'), 25_000);
      // This instance is shutting down: the browser's EventSource reconnects (through the balancer, to another) in a second.
      forgetDrain = whenDraining(() => {
        send('retry: 1000\nevent: reconnect\ndata: {}\n\n');
        stop();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel: stop,
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' } });
}
