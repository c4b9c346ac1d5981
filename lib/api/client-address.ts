/**
 * The client's address: the socket's, unless TRUST_PROXY says how many proxies of
 * ours stand in front and append to X-Forwarded-For; then the entry that many hops
 * from the right, the last one a proxy of ours wrote. Entries further left were
 * written by the client and are never believed.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustedHops: number): string {
  const socket = normalise(socketAddress ?? '') || 'unknown';
  if (trustedHops <= 0 || !forwardedFor) return socket;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((h) => normalise(h.trim()))
    .filter(Boolean);
  if (hops.length === 0) return socket;
  return hops[Math.max(0, hops.length - trustedHops)];
}

const normalise = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const hops = Number(env.TRUST_PROXY ?? 0);
  return Number.isInteger(hops) && hops > 0 ? hops : 0;
}

/** The address scripts/start.ts wrote into X-Forwarded-For, replacing whatever the client sent. */
export function requestAddress(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>): string {
  const value =
    typeof headers.get === 'function' ? (headers as Headers).get('x-forwarded-for') : (headers as Record<string, string | undefined>)['x-forwarded-for'];
  return (
    String(value ?? '')
      .split(',')[0]
      .trim() || 'unknown'
  );
}
