import { sha256Hex } from '../ids';

/** JSON with every object's keys sorted, recursively; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface RequestFingerprints {
  /** Of the method, path and the parsed body in canonical form: the same JSON with keys reordered or spaced otherwise is the same request. */
  fingerprint: string;
  /**
   * Of the raw bytes, as keys stored before the canonical form were fingerprinted: such a key,
   * kept 24 hours, still matches its retry sent byte for byte.
   */
  legacy: string;
}

export function requestFingerprints(method: string, path: string, raw: string): RequestFingerprints {
  const head = `${method} ${path}\n`;
  let body = raw;
  try {
    body = canonicalJson(JSON.parse(raw));
  } catch {
    // Not JSON: the bytes are the request (the handler refuses it).
  }
  return { fingerprint: sha256Hex(head + body), legacy: sha256Hex(head + raw) };
}
