import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client';
import type { Mode } from '../validation';

/**
 * What a view hears: which payout or payment changed, never its contents, so
 * the browser refetches exactly the queries that show it. `created` comes
 * from the core when a payout or payment is written (a pending bank payout has
 * no event until it settles); the other kinds from verified webhook arrivals.
 */
export interface LiveUpdate {
  /** The webhook-id of the event that arrived; absent for a creation notice. */
  id?: string;
  /** The event type (payout.success), or payout.created / payment.created. */
  event: string;
  kind: 'payout' | 'payment' | 'other';
  /** The payout's or payment's reference, when known. */
  reference?: string;
  /** The card numbers it touches, when known (source, destination, or the card a payment credits). */
  cards?: string[];
}

/** The live update of a webhook body: its kind and references, read from SPEC.md's payload fields. */
export function liveUpdateOfEvent(id: string, body: unknown): LiveUpdate {
  const e = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const data = (e.data && typeof e.data === 'object' ? e.data : e) as Record<string, unknown>;
  const event = typeof e.event === 'string' ? e.event : 'unknown';
  const pick = (...keys: string[]) => keys.map((k) => data[k] ?? e[k]).find((v): v is string => typeof v === 'string' && v.length > 0);
  const kind = event.startsWith('payout.') ? 'payout' : event.startsWith('payment.') ? 'payment' : 'other';
  const reference = kind === 'payout' ? pick('provider_reference', 'initiator_reference') : kind === 'payment' ? pick('service_reference') : undefined;
  const cards = ['source_card_number', 'destination_card_number', 'card_number']
    .map((k) => data[k] ?? e[k])
    .filter((v): v is string => typeof v === 'string' && /^\d{8,19}$/.test(v));
  return { id, event: event.slice(0, 64), kind, ...(reference ? { reference: reference.slice(0, 64) } : {}), ...(cards.length ? { cards } : {}) };
}

const pendingNotices = new Map<string, { timer: ReturnType<typeof setTimeout>; latest: LiveUpdate; trailing: boolean }>();
const NOTICE_WINDOW_MS = 100;

/**
 * Tells open views of this business and mode that a payout or payment was
 * created. Sent after the caller's commit, outside its transaction (NOTIFY in
 * a transaction serialises commits), and at most one notice per channel per
 * 100 ms per process: the first goes at once, a burst behind it becomes one
 * trailing notice, so a payout storm costs ten small statements a second.
 * Never throws: a lost notice only delays a list until the settlement event.
 */
export function announceCreated(db: Db, businessId: number, mode: Mode, kind: 'payout' | 'payment', reference: string): void {
  const channel = liveUpdatesChannel(businessId, mode);
  const update: LiveUpdate = { event: `${kind}.created`, kind, reference };
  const send = (u: LiveUpdate) => void db.execute(sql`SELECT pg_notify(${channel}, ${JSON.stringify(u)})`).catch(() => {});
  const pending = pendingNotices.get(channel);
  if (pending) {
    pending.latest = update;
    pending.trailing = true;
    return;
  }
  send(update);
  const entry = {
    latest: update,
    trailing: false,
    timer: setTimeout(() => {
      pendingNotices.delete(channel);
      if (entry.trailing) send(entry.latest);
    }, NOTICE_WINDOW_MS),
  };
  entry.timer.unref?.();
  pendingNotices.set(channel, entry);
}

type Listener = (update: LiveUpdate) => void;

/** One channel per business and mode: a view only hears about its own data. */
export function liveUpdatesChannel(businessId: number, mode: Mode): string {
  return `live_updates_${businessId}_${mode}`;
}

interface Hub {
  url: string;
  client?: Promise<pg.Client>;
  listeners: Map<string, Set<Listener>>;
}

const globalForHub = globalThis as unknown as { __liveUpdatesHub?: Hub };

function connect(hub: Hub): Promise<pg.Client> {
  hub.client ??= (async () => {
    const client = new pg.Client({ connectionString: hub.url });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      let update: LiveUpdate;
      try {
        update = JSON.parse(msg.payload);
      } catch {
        return;
      }
      for (const listener of hub.listeners.get(msg.channel) ?? []) listener(update);
    });
    const reconnect = () => {
      if (hub.client === undefined) return;
      hub.client = undefined;
      client.end().catch(() => {});
      // LISTEN lives on the connection: a new one must listen again to every channel still wanted.
      if (hub.listeners.size) setTimeout(() => void connect(hub).catch(() => reconnect()), 1000).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    await client.connect();
    for (const channel of hub.listeners.keys()) await client.query(`LISTEN "${channel}"`);
    return client;
  })();
  return hub.client;
}

/**
 * Calls onUpdate whenever a verified event for this business and mode reaches
 * any app instance (PostgreSQL LISTEN/NOTIFY); answers the unsubscribe.
 * One connection per process carries every channel.
 */
export async function subscribeLiveUpdates(
  businessId: number,
  mode: Mode,
  onUpdate: Listener,
  // LISTEN holds a session: behind a pooler in transaction mode it needs a direct connection.
  databaseUrl = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL,
): Promise<() => Promise<void>> {
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  globalForHub.__liveUpdatesHub ??= { url: databaseUrl, listeners: new Map() };
  const hub = globalForHub.__liveUpdatesHub;
  const channel = liveUpdatesChannel(businessId, mode);
  let set = hub.listeners.get(channel);
  const first = !set;
  if (!set) {
    set = new Set();
    hub.listeners.set(channel, set);
  }
  set.add(onUpdate);
  const client = await connect(hub);
  if (first) await client.query(`LISTEN "${channel}"`);
  return async () => {
    set.delete(onUpdate);
    if (set.size === 0 && hub.listeners.get(channel) === set) {
      hub.listeners.delete(channel);
      await client.query(`UNLISTEN "${channel}"`).catch(() => {});
    }
    if (hub.listeners.size === 0 && hub.client) {
      const c = hub.client;
      hub.client = undefined;
      await (await c).end().catch(() => {});
    }
  };
}
