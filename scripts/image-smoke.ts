// The image's smoke test, run by scripts/image-smoke.sh once the image is built: the container, on this
// machine's network, against a scratch database it makes and drops on SMOKE_DATABASE_URL's server.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { freePort } from '../lib/db/embedded';

const image = process.env.SMOKE_IMAGE ?? 'localhost/giftcard-smoke:latest';
const podmanWords = (process.env.SMOKE_PODMAN ?? 'podman').trim().split(/\s+/);
const limits = (process.env.SMOKE_LIMITS ?? '').split(/\s+/).filter(Boolean);
// Another command than the image's CMD (a JSON array), to see how the smoke test judges it.
const command: string[] = process.env.SMOKE_COMMAND ? JSON.parse(process.env.SMOKE_COMMAND) : [];
const server = new URL(process.env.SMOKE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

const podman = (...args: string[]) => spawnSync(podmanWords[0], [...podmanWords.slice(1), ...args], { encoding: 'utf8' });
let failed = 0;
function check(name: string, ok: boolean, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failed++;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function onServer<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(server);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A POST whose body arrives in two parts: the request is in flight between them. */
function slowPost(port: number, path: string, key: string, body: string) {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  // Connected before anything else runs: the checks below block this process's event loop while podman answers.
  const connected = new Promise<void>((resolve) => req.once('socket', (socket) => socket.once('connect', () => resolve())));
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), answer, connected };
}

async function main() {
  const refused = podman('run', '--rm', '--network', 'host', ...limits, image, ...command);
  check('refuses to start without DATABASE_URL', refused.status === 1 && refused.stderr.includes('DATABASE_URL must be set'), `exit ${refused.status}`);

  const database = `giftcard_image_smoke_${process.pid}`;
  await onServer('postgres', (c) => c.query(`CREATE DATABASE ${database}`));
  const name = `giftcard-smoke-${process.pid}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/${database}`;
  try {
    const env = {
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      APP_URL: base,
      ADMIN_TOKEN: adminToken,
      AUTH_SECRET: randomBytes(32).toString('base64url'),
    };
    const started = Date.now();
    const run = podman(
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      ...limits,
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      image,
      ...command,
    );
    if (run.status !== 0) throw new Error(`podman run: ${run.stderr}`);
    const running = () => podman('inspect', '--format', '{{.State.Running}}', name).stdout.trim() === 'true';
    await waitFor(
      'health',
      async () => {
        if (!running()) throw new Error(`the container stopped:\n${podman('logs', name).stderr}`);
        return (await fetch(`${base}/api/health`)).ok || undefined;
      },
      180_000,
    ).catch((err) => {
      if (!running()) throw new Error(`the container stopped:\n${podman('logs', name).stdout}${podman('logs', name).stderr}`);
      throw err;
    });
    check('health', true, `200 after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const ready = await fetch(`${base}/api/ready`);
    check('ready', ready.status === 200, `${ready.status} ${JSON.stringify(await ready.json())}`);

    const logs = () => {
      const out = podman('logs', name);
      return out.stdout + out.stderr;
    };
    const businesses = await onServer(database, (c) => c.query('SELECT count(*)::int AS n FROM businesses'));
    check('seeds nothing, prints no credentials', businesses.rows[0].n === 0 && !/live API key|owner@demo/.test(logs()), `${businesses.rows[0].n} businesses`);

    const admin = await fetch(`${base}/api/admin/businesses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Image smoke' }),
    });
    const business = (await admin.json()) as { data: { merchant_id: string; api_keys: { test: string } } };
    check('a business through the back office API', admin.status === 201, `${admin.status} ${business.data?.merchant_id}`);
    const key = business.data.api_keys.test;
    const phone = `+2519${String(Date.now() % 100_000_000).padStart(8, '0')}`;
    const made = await fetch(`${base}/api/v1/card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: phone, currency: 'ETB', first_name: 'Smoke' }),
    });
    const card = (await made.json()) as { data: { card_number: string } };
    const read = await fetch(`${base}/api/v1/card/${card.data?.card_number}`, { headers: { authorization: `Bearer ${key}` } });
    const readBody = (await read.json()) as { data: { card_number: string; available_amount: number } };
    check(
      'a card made and read back',
      made.status === 201 && read.status === 200 && readBody.data.card_number === card.data.card_number,
      `${made.status}, ${read.status}`,
    );
    const login = await fetch(`${base}/login`);
    const page = await login.text();
    check('the sign-in page renders', login.status === 200 && page.includes('<form'), `${login.status}, ${page.length} bytes`);

    const status = podman('exec', name, 'cat', '/proc/1/status').stdout;
    const uid = status.match(/^Uid:\s+(\d+)/m)?.[1];
    const process1 = status.match(/^Name:\s+(\S+)/m)?.[1];
    check('runs as a user other than root', uid !== undefined && uid !== '0', `uid ${uid}`);
    check('process 1 is node itself', process1 === 'node', `process 1 is ${process1}`);
    const sizes = podman('exec', name, 'du', '-sm', '/app/node_modules', '/app/.next').stdout.trim().replace(/\s+/g, ' ');
    console.log(`     sizes (MB): ${sizes}`);

    // SIGTERM with a request in flight: it must be answered, then the server exits 0.
    // The next number on the same +2519 range: every +2519… is a valid mobile, while most +2517… are not (a 400 the check once took for a drain fault).
    const latePhone = `+2519${String((Number(phone.slice(5)) + 1) % 100_000_000).padStart(8, '0')}`;
    const inFlight = slowPost(port, '/api/v1/card', key, JSON.stringify({ phone_number: latePhone, currency: 'ETB', first_name: 'Late' }));
    await inFlight.connected;
    // The server has the request's head once it answers another request on a later connection.
    await fetch(`${base}/api/health`);
    const stopAt = Date.now();
    const stop = spawn(podmanWords[0], [...podmanWords.slice(1), 'stop', '--time', '30', name], { stdio: 'ignore' });
    const stopped = new Promise<number>((r) => stop.once('exit', () => r(Date.now() - stopAt)));
    const answer = inFlight.answer.then(
      (a) => ({ ...a, at: Date.now() - stopAt }),
      (err: Error) => ({ status: 0, body: err.message, at: Date.now() - stopAt }),
    );
    const drainingAt = await waitFor('the drain', async () => (logs().includes('draining:') ? Date.now() - stopAt : undefined), 30_000).catch(() => undefined);
    const drainLine = logs().match(/draining: .*/)?.[0];
    inFlight.finish();
    const answered = await answer;
    const stoppedAfter = await stopped;
    const exitCode = podman('inspect', '--format', '{{.State.ExitCode}}', name).stdout.trim();
    check(
      'SIGTERM starts a drain',
      drainingAt !== undefined,
      drainingAt === undefined ? 'no drain in the log' : `"${drainLine}" logged ${drainingAt} ms after podman stop`,
    );
    check('the request in flight is answered', answered.status === 201, `${answered.status} ${answered.body.slice(0, 300)} at ${answered.at} ms`);
    check('the server exits 0', exitCode === '0', `exit ${exitCode}, podman stop returned after ${stoppedAfter} ms`);
    const cards = await onServer(database, (c) => c.query(`SELECT count(*)::int AS n FROM cards`));
    check('both cards are in the database', cards.rows[0].n === 2, `${cards.rows[0].n}`);
  } finally {
    podman('rm', '-f', name);
    await onServer('postgres', (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
  console.log(failed ? `${failed} check(s) failed` : 'all checks passed');
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
