import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientEntryFiles, walkClientImports } from './client-files';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Modules that must never reach the browser: the database, the server's session, Node.js itself. */
const SERVER_ONLY = [/^node:/, /^pg$/, /^drizzle-orm/, /^next-auth$/, /^server-only$/, /^lib\/db\//, /^server\/(session|run-action)\.ts$/];

/** Every chain of run-time imports from a client file to a server-only module. */
function clientOffences(clientFiles: string[]): string[] {
  const offences: string[] = [];
  walkClientImports(clientFiles, (target, trail) => {
    const serverOnly = SERVER_ONLY.some((re) => re.test(target));
    if (serverOnly) offences.push([...trail, target].join(' → '));
    return serverOnly;
  });
  return offences;
}

describe('import boundaries', () => {
  it('no client component reaches a server-only module, directly or through what it imports', () => {
    const clientFiles = clientEntryFiles();
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
