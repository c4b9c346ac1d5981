import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Modules that must never reach the browser: the database, the server's session, Node.js itself. */
const SERVER_ONLY = [/^node:/, /^pg$/, /^drizzle-orm/, /^next-auth$/, /^server-only$/, /^lib\/db\//, /^server\/(session|run-action)\.ts$/];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

const directive = (source: string, name: string) => new RegExp(`^\\s*['"]use ${name}['"]`).test(source);

/** The modules a file imports at run time (type-only imports are erased), as repository paths or package names. */
function runtimeImports(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...source.matchAll(/^\s*(import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[2]);
  return specifiers.map((s) => {
    if (!s.startsWith('.') && !s.startsWith('@/')) return s;
    const base = s.startsWith('@/') ? path.join(ROOT, s.slice(2)) : path.resolve(ROOT, path.dirname(file), s);
    const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
    return path.relative(ROOT, found ?? base);
  });
}

/** Every chain of run-time imports from a client file to a server-only module. */
function clientOffences(clientFiles: string[]): string[] {
  const offences: string[] = [];
  for (const start of clientFiles) {
    const seen = new Set<string>();
    const walk = (file: string, trail: string[]) => {
      for (const target of runtimeImports(file)) {
        if (SERVER_ONLY.some((re) => re.test(target))) offences.push([...trail, target].join(' → '));
        else if (/\.tsx?$/.test(target) && !seen.has(target)) {
          seen.add(target);
          // A server action is called over the network from the browser: what it imports stays on the server.
          if (!directive(fs.readFileSync(path.join(ROOT, target), 'utf8'), 'server')) walk(target, [...trail, target]);
        }
      }
    };
    walk(start, [start]);
  }
  return offences;
}

describe('import boundaries', () => {
  it('no client component reaches a server-only module, directly or through what it imports', () => {
    const clientFiles = [...sourceFiles('components'), ...sourceFiles('app')].filter((f) => directive(fs.readFileSync(path.join(ROOT, f), 'utf8'), 'client'));
    expect(clientFiles.length).toBeGreaterThan(10);
    expect(clientOffences(clientFiles)).toEqual([]);
  });

  it('catches a client component that reaches the database through a core module, and lets server actions be', () => {
    const fixture = 'tests/client-import-fixture.tsx';
    fs.writeFileSync(
      path.join(ROOT, fixture),
      "'use client';\nimport { getCard } from '@/lib/cards/get-card';\nimport { createCard } from '@/server/actions/cards';\nexport const x = [getCard, createCard];\n",
    );
    try {
      const offences = clientOffences([fixture]);
      expect(offences.length).toBeGreaterThan(0);
      expect(offences.every((o) => o.startsWith('tests/client-import-fixture.tsx → lib/cards/get-card.ts'))).toBe(true);
    } finally {
      fs.rmSync(path.join(ROOT, fixture));
    }
  });
});
