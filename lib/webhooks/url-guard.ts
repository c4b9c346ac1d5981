import dns from 'node:dns/promises';
import net from 'node:net';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The eight 16-bit words of an IPv6 address, with :: expanded and a dotted IPv4 tail converted. */
function ipv6Words(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

/** True for addresses a live webhook must never reach: loopback, private, link-local, CGNAT, multicast, reserved. */
export function isNonPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  if (net.isIPv6(ip)) {
    const lower = ip.toLowerCase();
    const words = ipv6Words(lower);
    // IPv4-mapped and IPv4-compatible forms (also in hex, as URL parsing writes them) reach the embedded IPv4 address.
    if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0)) {
      if (words[5] === 0 && words[6] === 0 && words[7] <= 1) return true;
      return isNonPublicAddress(`${words[6] >> 8}.${words[6] & 255}.${words[7] >> 8}.${words[7] & 255}`);
    }
    if (words[0] === 0x2002) return isNonPublicAddress(`${words[1] >> 8}.${words[1] & 255}.${words[2] >> 8}.${words[2] & 255}`);
    return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff') || lower.startsWith('64:ff9b:') || lower.startsWith('2001:db8');
  }
  return true;
}

export interface WebhookTarget {
  url: URL;
  /** The checked address to connect to, so a second DNS answer cannot swap it; absent for test-mode loopback names. */
  address?: string;
  family?: 4 | 6;
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
    if (LOOPBACK_NAMES.has(host)) return { url };
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
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

export async function checkWebhookUrl(raw: string, mode: Mode): Promise<URL> {
  return (await resolveWebhookTarget(raw, mode)).url;
}
