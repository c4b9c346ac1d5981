import { ChapaFake } from './core';
import { ROUTE_MODULES } from './routes';

/**
 * npm run chapa:fake: a local Chapa for a live-mode demo or tests.
 * Prints one line `chapa-fake listening on <url>` once it accepts requests.
 */
async function main() {
  const fake = new ChapaFake({
    secretKey: process.env.CHAPA_SECRET_KEY ?? 'CHASECK_TEST-fake-secret-key',
    webhookSecret: process.env.CHAPA_WEBHOOK_SECRET ?? 'fake-webhook-secret',
    encryptionKey: process.env.CHAPA_ENCRYPTION_KEY ?? 'fake-encryption-key-24by',
    webhookUrl: process.env.CHAPA_FAKE_WEBHOOK_URL,
  });
  for (const register of ROUTE_MODULES) register(fake);
  const url = await fake.listen(Number(process.env.CHAPA_FAKE_PORT ?? 4010), process.env.CHAPA_FAKE_HOST ?? '127.0.0.1');
  console.log(`chapa-fake listening on ${url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
