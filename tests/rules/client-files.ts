import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The TypeScript files under a folder, tests left out. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

export const readSource = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const directive = (source: string, name: string) => new RegExp(`^\\s*['"]use ${name}['"]`).test(source);

/** The modules a file imports at run time (type-only imports are erased), as repository paths or package names. */
function runtimeImports(file: string): string[] {
  const specifiers = [...readSource(file).matchAll(/^\s*(import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[2]);
  return specifiers.map((s) => {
    if (!s.startsWith('.') && !s.startsWith('@/')) return s;
    const base = s.startsWith('@/') ? path.join(ROOT, s.slice(2)) : path.resolve(ROOT, path.dirname(file), s);
    const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
    return path.relative(ROOT, found ?? base);
  });
}

/** The files marked 'use client' under components/ and app/: where the browser's code starts. */
export function clientEntryFiles(): string[] {
  return [...sourceFiles('components'), ...sourceFiles('app')].filter((f) => directive(readSource(f), 'client'));
}

/** Whether the browser loads what a file imports too: a server action is called over the network, its imports stay on the server. */
const followed = (target: string) => /\.tsx?$/.test(target) && !directive(readSource(target), 'server');

/**
 * Every chain of run-time imports from a client file, each file once per start: `visit` sees each import with the
 * chain that led to it, and answers true to follow it no further.
 */
export function walkClientImports(starts: string[], visit: (target: string, trail: string[]) => boolean): void {
  for (const start of starts) {
    const seen = new Set<string>();
    const walk = (file: string, trail: string[]) => {
      for (const target of runtimeImports(file)) {
        if (visit(target, trail) || seen.has(target) || !followed(target)) continue;
        seen.add(target);
        walk(target, [...trail, target]);
      }
    };
    walk(start, [start]);
  }
}

/** Every file the browser loads: the client files and all they import at run time (one walk for all of them). */
export function clientLoadedFiles(): string[] {
  const starts = clientEntryFiles();
  const files = new Set(starts);
  const walk = (file: string) => {
    for (const target of runtimeImports(file)) {
      if (files.has(target) || !followed(target)) continue;
      files.add(target);
      walk(target);
    }
  };
  for (const start of starts) walk(start);
  return [...files];
}
