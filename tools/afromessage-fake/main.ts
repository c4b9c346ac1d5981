import { AfroMessageFake } from './fake';

/**
 * npm run sms:fake: a local AfroMessage for a live-mode demo or tests.
 * Prints one line `afromessage-fake listening on <url>` once it accepts requests.
 */
async function main() {
  const fake = new AfroMessageFake({ token: process.env.AFROMESSAGE_TOKEN ?? 'afromessage-fake-token', sender: process.env.AFROMESSAGE_SENDER || undefined });
  const url = await fake.listen(Number(process.env.AFROMESSAGE_FAKE_PORT ?? 4020), process.env.AFROMESSAGE_FAKE_HOST ?? '127.0.0.1');
  console.log(`afromessage-fake listening on ${url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
