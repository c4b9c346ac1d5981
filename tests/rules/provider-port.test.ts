import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, projectImports } from './import-layers';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The composition root: the one file outside the adapters that names them, to plug them into the registry. */
const WIRING = 'lib/wire-providers.ts';
const ADAPTERS = 'lib/rails/';

/** Each import of an adapter's file from outside the adapters and the wiring, as "from → to". */
function adapterImports(graph: Map<string, string[]>): string[] {
  return [...graph]
    .filter(([from]) => !from.startsWith(ADAPTERS) && from !== WIRING)
    .flatMap(([from, targets]) => targets.filter((to) => to.startsWith(ADAPTERS)).map((to) => `${from} → ${to}`))
    .sort();
}

/**
 * One provider port: pages, routes, reports and the core reach Chapa only
 * through lib/providers (the port and its registry); lib/wire-providers.ts
 * alone names the adapter, to register it.
 */
describe('the provider port', () => {
  it('is the only way to a provider: nothing outside lib/rails but the wiring imports lib/rails', () => {
    const graph = importGraph();
    expect([...graph.keys()].some((f) => f.startsWith(ADAPTERS))).toBe(true);
    expect(adapterImports(graph)).toEqual([]);
  });

  it('catches a planted import, a type-only one and a dynamic one alike, and lets the wiring and the adapter itself be', () => {
    const fixture = 'tests/rules/provider-import-fixture.ts';
    fs.writeFileSync(
      path.join(ROOT, fixture),
      [
        "import type { ChapaConfig } from '@/lib/rails/chapa/config';",
        "import { chapaBalancesFor } from '../../lib/rails/chapa/chapa-balances';",
        "export const later = () => import('@/lib/rails/chapa/rail-request-view');",
        'export const x: [ChapaConfig | null, typeof chapaBalancesFor] = [null, chapaBalancesFor];',
        '',
      ].join('\n'),
    );
    try {
      const planted = new Map(importGraph());
      planted.set(fixture, projectImports(fixture));
      planted.set('app/(dashboard)/reports/reconciliation/page.tsx', [
        ...(planted.get('app/(dashboard)/reports/reconciliation/page.tsx') ?? []),
        'lib/rails/chapa/config.ts',
      ]);
      expect(adapterImports(planted)).toEqual([
        'app/(dashboard)/reports/reconciliation/page.tsx → lib/rails/chapa/config.ts',
        `${fixture} → lib/rails/chapa/chapa-balances.ts`,
        `${fixture} → lib/rails/chapa/config.ts`,
        `${fixture} → lib/rails/chapa/rail-request-view.ts`,
      ]);
      expect(planted.get(WIRING)).toContain('lib/rails/chapa/chapa-provider.ts');
      expect(planted.get('lib/rails/chapa/chapa-provider.ts')).toContain('lib/rails/chapa/config.ts');
    } finally {
      fs.rmSync(path.join(ROOT, fixture));
    }
  });
});
