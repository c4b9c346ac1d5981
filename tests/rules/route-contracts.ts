import fs from 'node:fs';
import path from 'node:path';
import type { Operation } from '../../lib/api/contracts/contract';

const ROOT = path.resolve(import.meta.dirname, '../..');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface RouteFile {
  /** The folder under app/api/v1, as Next.js routes it: /card/[card_number]. */
  route: string;
  source: string;
}

/** Every route.ts under app/api/v1 with its source. */
export function v1RouteFiles(): RouteFile[] {
  const base = path.join(ROOT, 'app/api/v1');
  const found: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const rel = path.relative(base, path.dirname(full)).split(path.sep).join('/');
        found.push({ route: `/${rel}`, source: fs.readFileSync(full, 'utf8') });
      }
    }
  };
  walk(base);
  return found.sort((a, b) => a.route.localeCompare(b.route));
}

/** `/card/[card_number]` as a contract spells it: `/card/{card_number}`. */
const contractPath = (route: string) => route.replace(/\[([^\]]+)\]/g, '{$1}');

/**
 * Holds the route files to the contracts: each method a route file exports is served by handing one
 * contract (named as `xContracts.operationId`, or a public contract by name) to apiRoute or publicRoute,
 * with that method and that folder's path; each contract is served by exactly one of them. Answers the
 * problems found, one sentence each.
 */
export function routeContractProblems(files: RouteFile[], contracts: Record<string, Operation>): string[] {
  const problems: string[] = [];
  const servedBy = new Map<string, string[]>();
  for (const { route, source } of files) {
    if (route === '/[...path]') continue; // the catch-all: every method answers 404 Not found, through unknownPath()
    for (const method of METHODS) {
      const exported = new RegExp(`export\\s+(?:const|async\\s+function|function)\\s+${method}\\b|export\\s*\\{[^}]*\\bas\\s+${method}\\b`).test(source);
      if (!exported) continue;
      const at = `${method} ${route}`;
      const served = new RegExp(`export\\s+const\\s+${method}\\s*=\\s*(?:apiRoute|publicRoute)(?:<[^>]*>)?\\(\\s*([\\w.]+)\\s*,`).exec(source);
      if (!served) {
        problems.push(`${at} is exported without a contract handed to apiRoute or publicRoute`);
        continue;
      }
      const name = served[1];
      const contract = contracts[name];
      if (!contract) {
        problems.push(`${at} names ${name}, which is no declared contract`);
        continue;
      }
      if (contract.method !== method.toLowerCase() || contract.path !== contractPath(route))
        problems.push(`${at} is served with ${name}, which declares ${contract.method.toUpperCase()} ${contract.path}`);
      servedBy.set(name, [...(servedBy.get(name) ?? []), at]);
    }
  }
  for (const name of Object.keys(contracts)) {
    const routes = servedBy.get(name) ?? [];
    if (routes.length !== 1) problems.push(`${name} is served by ${routes.length} route exports${routes.length ? `: ${routes.join(', ')}` : ''}`);
  }
  return problems;
}
