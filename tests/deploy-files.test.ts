import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import ts from 'typescript';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../lib/db/embedded';
import { waitFor } from './helpers';
import { PGBOUNCER } from './pgbouncer-process';

/**
 * The deployment files held to the repository without building anything: what
 * they copy exists and is enough for next build and npm start, what they mount
 * exists, and the proxy's own checker accepts its configuration. Building and
 * running the image takes minutes: scripts/image-smoke.sh does it with podman.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Stage {
  name: string;
  base: string;
  lines: string[];
}

function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = line.match(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i);
    if (from) stages.push({ base: from[1], name: from[2] ?? String(stages.length), lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** COPY's sources, destination and --from stage. */
function copies(stage: Stage) {
  return stage.lines
    .filter((l) => /^COPY\s/i.test(l))
    .map((l) => {
      const words = l.split(/\s+/).slice(1);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      return { from, sources: paths.slice(0, -1), destination: paths.at(-1)! };
    });
}

/** .dockerignore's rule for a path of the build context (its patterns as written here: no negations). */
function dockerIgnores(patterns: string[]): (relative: string) => boolean {
  expect(patterns.filter((p) => p.startsWith('!'))).toEqual([]);
  const regexes = patterns.map((p) => {
    const body = p
      .replace(/^\/+|\/+$/g, '')
      .split('**')
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replaceAll('*', '[^/]*')
          .replaceAll('?', '[^/]'),
      )
      .join('.*');
    return new RegExp(`^${body}$`);
  });
  // A folder that matches takes everything under it along.
  return (relative) => {
    const parts = relative.split('/');
    return parts.some((_, i) => regexes.some((r) => r.test(parts.slice(0, i + 1).join('/'))));
  };
}

/** A copy of what a stage's COPY lines take from the build context, as the builder would lay it out under WORKDIR. */
function buildContextCopy(stage: Stage, ignored: (relative: string) => boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-build-stage-'));
  for (const copy of copies(stage).filter((c) => !c.from)) {
    const into = copy.sources.length > 1 || copy.destination.endsWith('/');
    for (const source of copy.sources) {
      const target = path.join(dir, into ? path.join(copy.destination, path.basename(source)) : copy.destination);
      fs.cpSync(path.join(ROOT, source), target, { recursive: true, filter: (from) => !ignored(path.relative(ROOT, from)) });
    }
  }
  return dir;
}

/** Every repository file start.ts loads, following relative and '@/' imports. */
function importedFiles(entry: string): Set<string> {
  const seen = new Set<string>();
  const resolve = (from: string, spec: string) => {
    const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : path.resolve(path.dirname(from), spec);
    return ['', '.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  };
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'((?:\.{1,2}\/|@\/)[^']+)'/g)) {
      const target = resolve(file, spec);
      if (target) visit(target);
    }
  };
  visit(path.join(ROOT, entry));
  return new Set([...seen].map((f) => path.relative(ROOT, f)));
}

describe('Dockerfile', () => {
  const stages = stagesOf(read('Dockerfile'));
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const runtime = stages.at(-1)!;

  it('is multi-stage, ends on node:20-slim as a user other than root', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'prod-deps', 'build', 'runtime']);
    expect(runtime.base).toBe('node:20-slim');
    const user = runtime.lines
      .filter((l) => /^USER\s/i.test(l))
      .at(-1)
      ?.split(/\s+/)[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
  });

  it('copies only files that exist and the build context keeps, and only from earlier stages', () => {
    stages.forEach((stage, i) => {
      for (const copy of copies(stage)) {
        if (copy.from) {
          expect(
            stages.slice(0, i).map((s) => s.name),
            `${stage.name}: --from=${copy.from}`,
          ).toContain(copy.from);
          continue;
        }
        for (const source of copy.sources) {
          expect(fs.existsSync(path.join(ROOT, source)), `${stage.name}: COPY ${source}`).toBe(true);
          expect(ignored, `${stage.name}: ${source} is in .dockerignore`).not.toContain(source);
        }
      }
    });
  });

  it('gives the runtime every folder npm start loads, and the migrations', () => {
    const copied = new Set(copies(runtime).flatMap((c) => (c.from ? [c.destination.replace(/^\.\//, '')] : c.sources)));
    const needed = new Set([...importedFiles('scripts/start.ts')].map((f) => f.split('/')[0]));
    expect(needed.has('lib')).toBe(true);
    for (const dir of needed) expect(copied, `npm start loads ${dir}/`).toContain(dir);
    expect(fs.existsSync(path.join(ROOT, 'lib/db/migrations/meta/_journal.json'))).toBe(true);
    expect(copied).toContain('.next');
    expect(copied).toContain('node_modules');
  });

  it('gives next build everything the app imports, and its type-check no test code', () => {
    const build = stages.find((s) => s.name === 'build')!;
    expect(build.lines.some((l) => /^RUN .*next build/.test(l))).toBe(true);
    // next build type-checks the files of the tsconfig next.config.mjs names: test code (which imports tests/) is left out.
    const tsconfig = read('next.config.mjs').match(/tsconfigPath: '([^']+)'/)?.[1];
    expect(tsconfig).toBe('tsconfig.build.json');
    const dir = buildContextCopy(build, dockerIgnores(ignored));
    try {
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      const filesIn = (root: string) => {
        const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, tsconfig!), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
        expect(parsed?.errors).toEqual([]);
        // next build writes next-env.d.ts before its type-check, in the image as here.
        const files = parsed!.fileNames.map((f) => path.relative(root, f)).filter((f) => f !== 'next-env.d.ts');
        return { options: parsed!.options, files: files.sort() };
      };
      const copied = filesIn(dir);
      expect(copied.files.filter((f) => /\.test\.tsx?$/.test(f) || f.startsWith('tests/'))).toEqual([]);
      // The image's build type-checks exactly what next build checks here.
      expect(copied.files).toEqual(filesIn(ROOT).files);
      // Every import of those files, and of the files they import, is in the copy or among the packages.
      const cache = ts.createModuleResolutionCache(dir, (f) => f, copied.options);
      const unresolved: string[] = [];
      const seen = new Set<string>();
      const visit = (relative: string) => {
        if (seen.has(relative)) return;
        seen.add(relative);
        const file = path.join(dir, relative);
        for (const { fileName: spec } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
          const resolved = ts.resolveModuleName(spec, file, copied.options, ts.sys, cache).resolvedModule;
          if (resolved && !resolved.isExternalLibraryImport) visit(path.relative(dir, resolved.resolvedFileName));
          else if (!resolved && /^(\.|@\/)/.test(spec)) {
            // Not code (a style sheet): it must be there as a file.
            const target = spec.startsWith('@/') ? path.join(dir, spec.slice(2)) : path.resolve(path.dirname(file), spec);
            if (!fs.existsSync(target)) unresolved.push(`${relative}: ${spec}`);
          } else if (!resolved && !spec.startsWith('node:')) unresolved.push(`${relative}: ${spec}`);
        }
      };
      for (const file of copied.files) visit(file);
      expect(unresolved).toEqual([]);
      expect([...seen].filter((f) => f.startsWith('..'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the build cache out of the image', () => {
    const build = stages.find((s) => s.name === 'build')!;
    expect(build.lines.find((l) => /^RUN .*next build/.test(l))).toMatch(/next build && rm -rf \.next\/cache$/);
  });

  it("runs npm start's own command as process 1, so SIGTERM reaches the server", () => {
    const cmd = runtime.lines.find((l) => /^CMD\s/.test(l))!;
    const script = (JSON.parse(cmd.slice(3).trim()) as string[])[2];
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(script.endsWith(`; exec ${start}`)).toBe(true);
    expect(start).toMatch(/^node /);
  });

  it('refuses to start without DATABASE_URL rather than start an embedded PostgreSQL', () => {
    const cmd = runtime.lines.find((l) => /^CMD\s/.test(l))!;
    const [shell, flag, script] = JSON.parse(cmd.slice(3).trim()) as string[];
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    const refused = spawnSync(shell, [flag, script], { env, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('DATABASE_URL must be set');
    // With it set, npm start's own rule skips the embedded server.
    expect(read('scripts/start.ts')).toMatch(/if \(!databaseUrl\) \{\s+embedded = await startEmbeddedPostgres/);
  });
});

describe('deploy/compose.yaml', () => {
  const compose = read('deploy/compose.yaml');
  const service = (name: string) => new RegExp(`^  ${name}:`, 'm');

  it('runs two app instances behind a proxy, a primary with a streaming replica, and PgBouncer in transaction mode', () => {
    for (const name of ['postgres-primary', 'postgres-replica', 'pgbouncer', 'app1', 'app2', 'proxy']) expect(compose).toMatch(service(name));
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/\S+@pgbouncer:6432\//);
    expect(compose).toMatch(/DATABASE_POOLER: transaction/);
    expect(compose).toMatch(/DATABASE_DIRECT_URL: postgres:\/\/\S+@postgres-primary:5432\//);
    expect(compose).toMatch(/DATABASE_READ_URL: postgres:\/\/\S+@postgres-replica:5432\//);
    expect(read('deploy/pgbouncer/pgbouncer.ini')).toMatch(/^pool_mode = transaction$/m);
    expect(read('deploy/postgres/replica-entrypoint.sh')).toMatch(/pg_basebackup .* -R /);
    const haproxy = read('deploy/haproxy.cfg');
    expect(haproxy).toMatch(/server app1 app1:3000/);
    expect(haproxy).toMatch(/server app2 app2:3000/);
  });

  it('mounts and builds only files that exist', () => {
    const local = [...compose.matchAll(/- (\.\/[^:\s]+):/g)].map((m) => m[1]);
    const contexts = [...compose.matchAll(/context: (\S+)/g)].map((m) => m[1]);
    expect(local).toHaveLength(3);
    for (const file of [...local, ...contexts]) expect(fs.existsSync(path.join(ROOT, 'deploy', file)), file).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'deploy/pgbouncer/Dockerfile'))).toBe(true);
  });

  it.skipIf(!fs.existsSync('/usr/sbin/haproxy'))('has a proxy configuration HAProxy itself accepts', () => {
    const checked = spawnSync('/usr/sbin/haproxy', ['-c', '-f', path.join(ROOT, 'deploy/haproxy.cfg')], { encoding: 'utf8' });
    expect(checked.status, checked.stderr).toBe(0);
    expect(`${checked.stdout}${checked.stderr}`).toContain('Configuration file is valid');
  });

  it.skipIf(!PGBOUNCER)("has a PgBouncer configuration and entrypoint Debian's pgbouncer runs, refusing a wrong password", async () => {
    // The compose file's pgbouncer.ini and entrypoint, with the container's paths and port moved to a temporary folder.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-deploy-pgbouncer-'));
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    const target = new URL(inject('databaseUrl'));
    const ini = read('deploy/pgbouncer/pgbouncer.ini')
      .replaceAll('/tmp/pgbouncer-', `${dir}/pgbouncer-`)
      .replace('listen_addr = 0.0.0.0', 'listen_addr = 127.0.0.1')
      .replace('listen_port = 6432', `listen_port = ${port}`);
    fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), ini);
    const entrypoint = read('deploy/pgbouncer/entrypoint.sh')
      .replaceAll('/tmp/pgbouncer-', `${dir}/pgbouncer-`)
      .replace(/^exec pgbouncer .*$/m, '');
    const env = { ...process.env, DB_HOST: 'postgres-primary', DB_USER: 'app', DB_PASSWORD: 'pw-from-env' };
    expect(spawnSync('bash', ['-c', entrypoint], { env, encoding: 'utf8' }).status).toBe(0);
    const databases = path.join(dir, 'pgbouncer-databases.ini');
    expect(fs.readFileSync(databases, 'utf8').trim()).toBe('giftcard = host=postgres-primary port=5432 dbname=giftcard');
    // The compose network's primary is this run's database here.
    const user = decodeURIComponent(target.username);
    const password = target.password ? ` password=${decodeURIComponent(target.password)}` : '';
    fs.writeFileSync(databases, `giftcard = host=${target.hostname} port=${target.port || 5432} dbname=${target.pathname.slice(1)} user=${user}${password}\n`);
    if (os.userInfo().uid === 0) spawnSync('chown', ['-R', 'postgres', dir]);
    const child = spawn(PGBOUNCER!, [...(os.userInfo().uid === 0 ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    try {
      await waitFor(
        () =>
          new Promise<true | undefined>((resolve) => {
            const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
            socket.on('error', () => resolve(undefined));
          }),
      );
      const wrong = new pg.Client({ connectionString: `postgres://app:wrong@127.0.0.1:${port}/giftcard` });
      await expect(wrong.connect()).rejects.toThrow();
      const client = new pg.Client({ connectionString: `postgres://app:pw-from-env@127.0.0.1:${port}/giftcard` });
      await client.connect();
      try {
        expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
      } finally {
        await client.end();
      }
    } finally {
      child.kill('SIGINT');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
