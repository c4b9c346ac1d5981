import dns from 'node:dns/promises';
import net from 'node:net';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

// IANA's special-purpose IPv4 ranges not globally reachable (documentation included), the retired 6to4 relay anycast, and 224/3.
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
];

const v4Number = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
const NON_PUBLIC_V4_RANGES = NON_PUBLIC_V4.map(([base, bits]) => ({ prefix: v4Number(base) >>> (32 - bits), bits }));

function isNonPublicV4(n: number): boolean {
  return NON_PUBLIC_V4_RANGES.some((r) => n >>> (32 - r.bits) === r.prefix);
}

/** The eight 16-bit words of an IPv6 address, with :: expanded and a dotted IPv4 tail converted. */
function ipv6Words(ip: string): number[] {
  let text = ip.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

/**
 * Only global unicast (2000::/3) outside IANA's special blocks is public. Of the
 * forms that carry an IPv4 address, IPv4-mapped and the well-known NAT64 prefix
 * (what DNS64 hands out) are judged by that address; the rest (IPv4-compatible,
 * IPv4-translated, local NAT64, 6to4, Teredo, ISATAP) go through relays or
 * translators we cannot see past, so they are refused whatever they carry.
 */
function isNonPublicV6(w: number[]): boolean {
  if (w.length !== 8 || w.some((x) => !(x >= 0 && x <= 0xffff))) return true;
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && w[5] === 0xffff) return isNonPublicV4(w[6] * 0x10000 + w[7]);
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) return isNonPublicV4(w[6] * 0x10000 + w[7]);
  if ((w[4] & 0xfcff) === 0 && w[5] === 0x5efe) return true;
  if (w[0] < 0x2000 || w[0] > 0x3fff) return true;
  return (
    (w[0] === 0x2001 && w[1] < 0x200) || // IETF protocol assignments 2001::/23, Teredo among them
    (w[0] === 0x2001 && w[1] === 0xdb8) || // documentation
    w[0] === 0x2002 || // 6to4
    (w[0] === 0x3fff && w[1] < 0x1000) // documentation 3fff::/20
  );
}

/** True for addresses a live webhook must never reach: loopback, private, link-local, CGNAT, documentation, multicast, reserved. */
export function isNonPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(ip)) return isNonPublicV4(v4Number(ip));
  if (net.isIPv6(ip)) return isNonPublicV6(ipv6Words(ip.toLowerCase()));
  return true;
}

export interface WebhookTarget {
  url: URL;
  /** The checked address to connect to, so a second DNS answer cannot swap it; absent for test-mode loopback names. */
  address?: string;
  family?: 4 | 6;
  /** False for the loopback names test mode allows: what answers there is the server's own network. */
  public: boolean;
}

/**
 * Where a webhook may go: live needs https to a public address (checked on the
 * resolved address, at registration and again at every delivery); test mode
 * also takes plain http and loopback.
 */
export async function resolveWebhookTarget(raw: string, mode: Mode): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('validation_error', { url: 'url must be an absolute URL.' });
  }
  if (url.username || url.password) throw new ServiceError('validation_error', { url: 'url must not carry credentials.' });
  const host = url.hostname.toLowerCase();
  if (mode === 'test') {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ServiceError('validation_error', { url: 'url must be http or https.' });
    if (LOOPBACK_NAMES.has(host)) return { url, public: false };
  } else if (url.protocol !== 'https:') {
    throw new ServiceError('validation_error', { url: 'Live webhook URLs must use https.' });
  }
  const literal = host.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(literal) ? [{ address: literal, family: net.isIP(literal) }] : await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new ServiceError('validation_error', { url: `The host ${host} does not resolve.` });
  }
  if (addresses.length === 0 || addresses.some((a) => isNonPublicAddress(a.address))) {
    throw new ServiceError('validation_error', { url: 'url must resolve to a public address.' });
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4, public: true };
}

export async function checkWebhookUrl(raw: string, mode: Mode): Promise<URL> {
  return (await resolveWebhookTarget(raw, mode)).url;
}
