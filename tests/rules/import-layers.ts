import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['lib', 'server', 'app', 'components', 'scripts'];

interface Layer {
  name: string;
  rank: number;
  says: string;
  paths: string[];
}
export interface LayerMap {
  layers: Layer[];
  never: [string, string, string][];
  known: { imports: string[]; circles: string[] };
}

export const readLayerMap = (): LayerMap => JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/rules/layers.json'), 'utf8'));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every file of the project this file imports (type-only and dynamic imports too: each ties the two files together). */
export function projectImports(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [
    ...[...source.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]),
    ...[...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
  ];
  return specifiers.flatMap((s) => {
    if (!s.startsWith('.') && !s.startsWith('@/')) return [];
    const base = s.startsWith('@/') ? path.join(ROOT, s.slice(2)) : path.resolve(ROOT, path.dirname(file), s);
    const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((x) => base + x).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
    return found ? [path.relative(ROOT, found)] : [];
  });
}

/** The project's import graph: file to the files it imports. */
export function importGraph(): Map<string, string[]> {
  return new Map(SOURCE_DIRS.flatMap(sourceFiles).map((f) => [f, [...new Set(projectImports(f))]]));
}

export const layerOf = (map: LayerMap, file: string) => map.layers.find((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));

/** Each import against the layers, as "from → to (why)": one that runs up, or sideways where the map forbids it. */
export function layerOffences(map: LayerMap, graph: Map<string, string[]>): string[] {
  const offences: string[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(map, from);
    for (const to of targets) {
      const b = layerOf(map, to);
      if (!a || !b) continue;
      const never = map.never.find(([x, y]) => x === a.name && y === b.name);
      if (b.rank > a.rank) offences.push(`${from} → ${to} (${a.name} imports ${b.name} above it)`);
      else if (never) offences.push(`${from} → ${to} (${never[2]})`);
    }
  }
  return offences.sort();
}

/** The circles between files (strongly connected groups of two or more), each as its files sorted and joined by " ; ". */
export function circles(graph: Map<string, string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort().join(' ; '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort();
}
