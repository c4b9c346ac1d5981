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

/**
 * Every chain of run-time imports from a client file, each file once per start: `visit` sees each import with the
 * chain that led to it, and answers true to follow it no further. A server action is called over the network from the browser, so what it imports is not followed.
 */
export function walkClientImports(starts: string[], visit: (target: string, trail: string[]) => boolean): void {
  for (const start of starts) {
    const seen = new Set<string>();
    const walk = (file: string, trail: string[]) => {
      for (const target of runtimeImports(file)) {
        if (!visit(target, trail) && /\.tsx?$/.test(target) && !seen.has(target)) {
          seen.add(target);
          if (!directive(readSource(target), 'server')) walk(target, [...trail, target]);
        }
      }
    };
    walk(start, [start]);
  }
}

/** Every file the browser loads: the client files and all they import at run time. */
export function clientLoadedFiles(): string[] {
  const starts = clientEntryFiles();
  const files = new Set(starts);
  const walk = (file: string) => {
    for (const target of runtimeImports(file)) {
      if (!/\.tsx?$/.test(target) || files.has(target) || directive(readSource(target), 'server')) continue;
      files.add(target);
      walk(target);
    }
  };
  for (const start of starts) walk(start);
  return [...files];
}
