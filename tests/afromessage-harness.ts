import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** tools/afromessage-fake as a process of its own, for suites that send live SMS to it over real HTTP. */

const ROOT = path.resolve(import.meta.dirname, '..');

export const AFROMESSAGE_TEST = { token: 'afro-harness-token-0123456789', identifierId: 'e80ad9d8-adf3-463f-80f4-7c4b39f7f164', sender: 'AbebeShop' };

export interface AfroMessageFakeProcess {
  url: string;
  process: ChildProcess;
  state: () => Promise<{
    messages: { message_id: string; via: 'GET' | 'POST'; from: string; sender: string; to: string; message: string; callback: string }[];
    sends: { via: string; to: string; answered: number | 'timeout' }[];
    callbacks: { url: string; status: string; answered: number | null; error?: string }[];
  }>;
  switches: (s: Record<string, unknown>) => Promise<void>;
  stop: () => Promise<void>;
}

export async function startAfroMessageFake(): Promise<AfroMessageFakeProcess> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['tools/afromessage-fake/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, AFROMESSAGE_FAKE_PORT: '0', AFROMESSAGE_TOKEN: AFROMESSAGE_TEST.token, AFROMESSAGE_SENDER: AFROMESSAGE_TEST.sender },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`afromessage-fake did not start:\n${log}`)), 30_000);
    child.stdout!.on('data', (d) => {
      log += d;
      const m = /afromessage-fake listening on (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr!.on('data', (d) => (log += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`afromessage-fake exited with ${code}:\n${log}`));
    });
  });
  const post = async (p: string, body: unknown) =>
    (await fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  return {
    url,
    process: child,
    state: async () => (await fetch(`${url}/__fake/state`)).json() as never,
    switches: async (s) => void (await post('/__fake/switches', s)),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** What a live server needs to send through the fake, with short timeouts and backoff so tests watch retries. */
export const afroMessageEnv = (fakeUrl: string): Record<string, string> => ({
  AFROMESSAGE_TOKEN: AFROMESSAGE_TEST.token,
  AFROMESSAGE_IDENTIFIER_ID: AFROMESSAGE_TEST.identifierId,
  AFROMESSAGE_SENDER: AFROMESSAGE_TEST.sender,
  AFROMESSAGE_BASE_URL: fakeUrl,
  AFROMESSAGE_TIMEOUT_MS: '1000',
  CHAPA_RETRY_BASE_MS: '300',
  CHAPA_RETRY_MAX_MS: '1200',
  MESSAGE_POLL_MS: '100',
});
