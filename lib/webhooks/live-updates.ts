import pg from 'pg';
import type { Mode } from '../validation';

export interface LiveUpdate {
  /** The webhook-id of the event that arrived. */
  id: string;
  event: string;
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
  databaseUrl = process.env.DATABASE_URL,
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
