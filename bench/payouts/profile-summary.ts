import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

/**
 * Summarises a V8 .cpuprofile (from BENCH_CPU_PROF) by area: each sample goes
 * to the nearest frame, from the leaf up, that is not Node.js's own code, and
 * that frame's source (through the build's source maps for bundled chunks)
 * names the area: Next.js, the pg driver, drizzle, zod, or our module.
 * Usage: npx tsx bench/payouts/profile-summary.ts <file.cpuprofile> [fromSecond toSecond]
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const maps = new Map<string, SourceMapConsumer | null>();
function consumer(file: string): SourceMapConsumer | null {
  if (!maps.has(file)) maps.set(file, fs.existsSync(`${file}.map`) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))) : null);
  return maps.get(file)!;
}

function sourceOf(f: CallFrame): string {
  if (!f.url.startsWith('file://')) return f.url;
  const file = fileURLToPath(f.url);
  if (!file.includes('/server/chunks/')) return file;
  const map = consumer(file);
  const source = map?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber }).source;
  return source ?? file;
}

function areaOf(source: string, fn: string): string | null {
  if (fn === '(garbage collector)') return 'garbage collector';
  if (fn === '(program)') return 'V8/native (program)';
  if (fn === '(idle)') return 'idle';
  if (source === '' || source.startsWith('node:')) return null;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1] === 'next' ? 'Next.js' : pkg[1];
  const ours = /\/?((?:lib|app|scripts|server)\/.+?)(?:\.tsx?)?$/.exec(source.replace(/^.*?\/h7\//, '').replace(/^(\.\.\/)+/, ''));
  return ours ? ours[1] : source;
}

function main() {
  const [file, from, to] = process.argv.slice(2);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const area = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = area.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const own = areaOf(sourceOf(n.callFrame), n.callFrame.functionName);
    const p = parent.get(id);
    const a =
      own ??
      (p === undefined || byId.get(p)!.callFrame.functionName === '(root)' ? `node internals: ${n.callFrame.functionName || '(anonymous)'}` : resolve(p));
    area.set(id, a);
    return a;
  };
  const totals = new Map<string, number>();
  let t = 0;
  let counted = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    const s = t / 1e6;
    if (from !== undefined && (s < Number(from) || s > Number(to))) return;
    const a = resolve(id);
    if (a === 'idle') return;
    totals.set(a, (totals.get(a) ?? 0) + 1);
    counted++;
  });
  console.log(`${counted} busy samples`);
  const group = (a: string) =>
    a === 'Next.js' || a === 'src' || a.startsWith('turbopack')
      ? 'Next.js'
      : /^pg(-protocol|-pool)?$/.test(a)
        ? 'pg driver'
        : a.startsWith('node internals')
          ? 'Node.js internals (promises, HTTP parser, sockets)'
          : /^(lib|app|scripts|server)\//.test(a)
            ? 'our code (all modules)'
            : a;
  const grouped = new Map<string, number>();
  for (const [a, n] of totals) grouped.set(group(a), (grouped.get(group(a)) ?? 0) + n);
  console.log('by group:');
  for (const [a, n] of [...grouped].sort((x, y) => y[1] - x[1]).slice(0, 12)) console.log(`${((100 * n) / counted).toFixed(1).padStart(5)}%  ${a}`);
  console.log('by area:');
  for (const [a, n] of [...totals].sort((x, y) => y[1] - x[1]).slice(0, 40)) console.log(`${((100 * n) / counted).toFixed(1).padStart(5)}%  ${a}`);
}

main();
