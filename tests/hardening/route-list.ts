import fs from 'node:fs';
import path from 'node:path';

export interface RouteMethod {
  /** URL path with its dynamic segments left as [name]. */
  route: string;
  method: string;
  /** False for a route outside apiRoute/adminRoute (public documentation): no key, no envelope. */
  wrapped: boolean;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every route file under app/api/v1 and app/api/admin and the methods it exports: new routes join by themselves. */
export function listApiRoutes(): RouteMethod[] {
  const found: RouteMethod[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const source = fs.readFileSync(full, 'utf8');
        const route = `/${path.relative(path.join(ROOT, 'app'), path.dirname(full)).split(path.sep).join('/')}`;
        for (const method of METHODS) {
          if (new RegExp(`export\\s+(const|async\\s+function|function)\\s+${method}\\b|export\\s*\\{[^}]*\\bas\\s+${method}\\b`).test(source))
            found.push({ route, method, wrapped: /\b(apiRoute|adminRoute)\b/.test(source) });
        }
      }
    }
  };
  walk(path.join(ROOT, 'app/api/v1'));
  walk(path.join(ROOT, 'app/api/admin'));
  return found.sort((a, b) => `${a.route} ${a.method}`.localeCompare(`${b.route} ${b.method}`));
}

export function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\[(\w+)\]/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for [${name}] in ${route}`);
    return encodeURIComponent(params[name]);
  });
}
