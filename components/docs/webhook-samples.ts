/** Node verification code shown on /docs/webhooks; kept beside the page so it reads as one example. */

export const VERIFY_SERVICE_SIGNATURES = `import { createHmac, timingSafeEqual } from 'node:crypto';

const hex = (key: string, message: string | Buffer) => createHmac('sha256', key).update(message).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

// Your secret, and during a rotation the new one too (the whole string, whsec_ included).
const secrets = [process.env.WEBHOOK_SECRET!, process.env.WEBHOOK_SECRET_NEXT].filter((s): s is string => !!s);

/** rawBody: the exact bytes received, before any JSON parsing. */
export function verifyServiceSignatures(headers: Headers, rawBody: Buffer): boolean {
  const pair = (sig: string, bodySig: string) =>
    secrets.some((secret) =>
      same(headers.get(sig) ?? '', hex(secret, secret)) &&        // service-signature: HMAC(secret, secret)
      same(headers.get(bodySig) ?? '', hex(secret, rawBody)));     // x-service-signature: HMAC(secret, body)
  return pair('service-signature', 'x-service-signature') ||
    pair('service-signature-next', 'x-service-signature-next');   // present only during a rotation
}`;

export const VERIFY_STANDARD_WEBHOOKS = `import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

/** Standard Webhooks: v1,base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")); refuses replays older than 5 minutes. */
export function verifyWebhookSignature(headers: Headers, rawBody: Buffer, secret: string): boolean {
  const id = headers.get('webhook-id') ?? '';
  const timestamp = headers.get('webhook-timestamp') ?? '';
  if (!/^\\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  // whsec_ secrets: the key is the base64-decoded part after the prefix; other secrets: their UTF-8 bytes.
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const expected = Buffer.from('v1,' + createHmac('sha256', key).update(\`\${id}.\${timestamp}.\`).update(rawBody).digest('base64'));
  // During a rotation the header holds two signatures, space-separated: either may match.
  return (headers.get('webhook-signature') ?? '').split(' ').some((given) => {
    const g = Buffer.from(given);
    return g.length === expected.length && timingSafeEqual(g, expected);
  });
}

// Or with the reference library (npm install standardwebhooks):
//   import { Webhook } from 'standardwebhooks';
//   const payload = new Webhook(secret).verify(rawBody.toString('utf8'), Object.fromEntries(headers)); // throws when invalid
//   (a secret you chose without the whsec_ prefix: new Webhook(Buffer.from(secret), { format: 'raw' }))`;

export const NEXT_RECEIVER = `// app/api/giftcard-webhooks/route.ts (Next.js); any framework works if you keep the raw body.
export async function POST(req: Request) {
  const rawBody = Buffer.from(await req.arrayBuffer());
  if (!verifyWebhookSignature(req.headers, rawBody, process.env.WEBHOOK_SECRET!) || !verifyServiceSignatures(req.headers, rawBody)) {
    return new Response('bad signature', { status: 401 });
  }
  const eventId = req.headers.get('webhook-id')!;       // the same on every retry: deduplicate on it
  const event = JSON.parse(rawBody.toString('utf8'));
  if (await alreadyHandled(eventId)) return new Response(null, { status: 200 });
  if (event.event === 'payment.success') await creditOrder(event.merchant_reference, event.amount);
  else if (event.event.startsWith('payout.')) await recordPayout(event.payout_type, event.status, event);
  await markHandled(eventId);
  return new Response(null, { status: 200 });             // answer 2xx within 15 s
}`;

export const CATCH_UP_CURL = `curl "$BASE_URL/events?undelivered=true&type=payment.success&limit=100" \\
  -H "Authorization: Bearer $API_KEY"`;

export const CATCH_UP_TS = `import { createGiftCardClient } from './lib/client/create-gift-card-client';

const client = createGiftCardClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });

/** Handles every event your URL has not acknowledged yet, oldest page last; safe to run again (deduplicate on id). */
export async function catchUp() {
  for (let page = 1; ; page++) {
    const res = await client.listEvents({ undelivered: true, limit: 100, page });
    if (res.status !== 'success') throw new Error(\`\${res.httpStatus} \${res.message}\`);
    for (const item of res.data.items) {
      if (await alreadyHandled(item.id)) continue;   // item.id is the webhook-id of its deliveries
      await handleEvent(item.payload);                // the exact webhook body
      await markHandled(item.id);
    }
    if (page >= res.data.pages) break;
  }
}`;
