import fs from 'node:fs';
import path from 'node:path';

const V1 = path.resolve(import.meta.dirname, '../app/api/v1');

/**
 * `METHOD /route` of every handler under app/api/v1 that goes through apiRoute
 * (and so through the scope check), read from the route files; `unmatched`
 * counts apiRoute calls not exported in the one shape this reads.
 */
export function servedOperations(): { operations: string[]; unmatched: string[] } {
  const operations: string[] = [];
  const unmatched: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const route = `/${path.relative(V1, dir).split(path.sep).join('/')}`;
        const source = fs.readFileSync(full, 'utf8');
        const exported = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = apiRoute\b/g)].map((m) => `${m[1]} ${route}`);
        operations.push(...exported);
        const calls = source.match(/\bapiRoute\s*[(<]/g)?.length ?? 0;
        if (calls !== exported.length) unmatched.push(route);
      }
    }
  };
  walk(V1);
  return { operations: operations.sort(), unmatched };
}
