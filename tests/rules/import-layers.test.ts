import { describe, expect, it } from 'vitest';
import { circles, importGraph, layerOf, layerOffences, readLayerMap } from './import-layers';

/**
 * The layers of tests/rules/layers.json over the import graph. `known` lists
 * what the code still does against them: it may only shrink (an entry that no
 * longer happens fails too, so a fix takes its line out).
 */
const map = readLayerMap();
const graph = importGraph();

describe('import layers', () => {
  it('places every source file in a layer', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect([...graph.keys()].filter((f) => !layerOf(map, f))).toEqual([]);
  });

  it('has no import running up or sideways against the layers beyond the known ones, and each known one still happens', () => {
    const offences = layerOffences(map, graph).map((o) => o.replace(/ \(.*\)$/, ''));
    expect(
      offences.filter((o) => !map.known.imports.includes(o)),
      'new imports against the layers',
    ).toEqual([]);
    expect(
      map.known.imports.filter((o) => !offences.includes(o)),
      'fixed: take these out of known.imports',
    ).toEqual([]);
  });

  it('has no circle between files beyond the known ones, and each known one still happens', () => {
    const found = circles(graph);
    expect(
      found.filter((c) => !map.known.circles.includes(c)),
      'new circles',
    ).toEqual([]);
    expect(
      map.known.circles.filter((c) => !found.includes(c)),
      'fixed: take these out of known.circles',
    ).toEqual([]);
  });

  it('refuses a planted upward import and a planted circle', () => {
    const planted = new Map(graph);
    // The ledger reaching up to a use case, and a use case importing back the ledger file that imports it.
    planted.set('lib/ledger/post-transaction.ts', [...(graph.get('lib/ledger/post-transaction.ts') ?? []), 'lib/cards/get-card.ts']);
    planted.set('lib/cards/get-card.ts', [...(graph.get('lib/cards/get-card.ts') ?? []), 'lib/ledger/post-transaction.ts']);
    expect(layerOffences(map, planted)).toContain('lib/ledger/post-transaction.ts → lib/cards/get-card.ts (ledger imports domain above it)');
    expect(circles(planted).some((c) => c.includes('lib/cards/get-card.ts') && c.includes('lib/ledger/post-transaction.ts'))).toBe(true);
  });
});
