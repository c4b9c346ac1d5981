import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Standard Webhooks key: the bytes after `whsec_` decoded from base64, as
 * that standard's libraries read it; a secret the business chose without the
 * prefix is used as its UTF-8 bytes.
 */
function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

const serviceSignatures = new Map<string, string>();

/**
 * SPEC.md's `service-signature`: hex HMAC-SHA256 keyed with the secret over the secret itself.
 * It depends on the secret alone, so each is computed once per process (a few secrets; bounded all the same).
 */
export function serviceSignature(secret: string): string {
  let signature = serviceSignatures.get(secret);
  if (signature === undefined) {
    signature = createHmac('sha256', secret).update(secret).digest('hex');
    if (serviceSignatures.size >= 1_000) serviceSignatures.clear();
    serviceSignatures.set(secret, signature);
  }
  return signature;
}

/** `x-service-signature`: hex HMAC-SHA256 keyed with the whole secret string over the raw body. */
export function bodySignature(secret: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** One Standard Webhooks signature, `v1,<base64>` over `id.timestamp.body`. */
export function standardSignature(secret: string, webhookId: string, timestamp: number | string, body: Buffer | string): string {
  const mac = createHmac('sha256', standardKey(secret));
  mac.update(`${webhookId}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export interface SignatureHeadersOptions {
  /** The current secret. */
  secret: string;
  /** The secret being retired, while its overlap lasts. */
  previousSecret?: string | null;
  webhookId: string;
  /** Seconds since the epoch, of this attempt. */
  timestamp: number;
  body: Buffer | string;
}

/**
 * Every header that authenticates a delivery. During a secret rotation:
 * `webhook-signature` carries both signatures, space-separated (new first), as
 * Standard Webhooks allows; `service-signature` and `x-service-signature` can
 * hold only one value for receivers that compare the whole header, so they keep
 * the previous secret (what receivers already hold) until the overlap ends,
 * while `service-signature-next` and `x-service-signature-next` carry the new
 * secret's values so a receiver can switch whenever it is ready.
 */
export function signatureHeaders(o: SignatureHeadersOptions): Record<string, string> {
  const standard = [standardSignature(o.secret, o.webhookId, o.timestamp, o.body)];
  const headers: Record<string, string> = {};
  if (o.previousSecret) {
    standard.push(standardSignature(o.previousSecret, o.webhookId, o.timestamp, o.body));
    headers['service-signature'] = serviceSignature(o.previousSecret);
    headers['x-service-signature'] = bodySignature(o.previousSecret, o.body);
    headers['service-signature-next'] = serviceSignature(o.secret);
    headers['x-service-signature-next'] = bodySignature(o.secret, o.body);
  } else {
    headers['service-signature'] = serviceSignature(o.secret);
    headers['x-service-signature'] = bodySignature(o.secret, o.body);
  }
  headers['webhook-id'] = o.webhookId;
  headers['webhook-timestamp'] = String(o.timestamp);
  headers['webhook-signature'] = standard.join(' ');
  return headers;
}

/** Constant-time string comparison; the length is compared first, as timingSafeEqual requires. */
export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Shown in place of a value derived from the signing secret. */
const HIDDEN = '(hidden: derived from the signing secret)';

/**
 * The headers a delivery of this event carries, as the delivery log may show
 * them: every name the sender writes (taken from signatureHeaders itself, so
 * the two never drift), with each signature's value hidden. service-signature
 * is the same on every delivery: showing it would hand out a credential.
 */
export function headersAsShown(webhookId: string, timestamp: number, rotating: boolean): { name: string; value: string }[] {
  const names = Object.keys(signatureHeaders({ secret: 'x', previousSecret: rotating ? 'y' : null, webhookId, timestamp, body: '' }));
  const shown: Record<string, string> = { 'webhook-id': webhookId, 'webhook-timestamp': String(timestamp) };
  return [
    { name: 'content-type', value: 'application/json' },
    { name: 'user-agent', value: USER_AGENT },
    ...names.map((name) => ({ name, value: shown[name] ?? HIDDEN })),
  ];
}

export const USER_AGENT = 'giftcard-webhooks/1';
