import fs from 'node:fs';
import path from 'node:path';

interface Node {
  fixed: Map<string, Node>;
  param?: Node;
  /** A catch-all ([...x] or [[...x]]) ends here with this pattern. */
  rest?: string;
  pattern?: string;
}

const node = (): Node => ({ fixed: new Map() });

/**
 * The route pattern a path is served by (`/api/v1/card/[card_number]/payouts`),
 * from the build's app-path-routes-manifest.json: metrics label requests by it,
 * never by the path itself, so a card number cannot become a label value.
 * Paths no route serves are `other`; Next.js's own assets `/_next`.
 */
export function routePatterns(distDir: string): (pathname: string) => string {
  const root = node();
  let manifest: Record<string, string> = {};
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'app-path-routes-manifest.json'), 'utf8'));
  } catch {
    /* no build: every path is `other` */
  }
  for (const pattern of new Set(Object.values(manifest))) {
    let at = root;
    for (const segment of pattern.split('/').filter(Boolean)) {
      if (segment.startsWith('[...') || segment.startsWith('[[...')) {
        at.rest = pattern;
        break;
      }
      if (segment.startsWith('[')) {
        at.param ??= node();
        at = at.param;
      } else {
        const next = at.fixed.get(segment) ?? node();
        at.fixed.set(segment, next);
        at = next;
      }
    }
    if (!at.rest || at.rest !== pattern) at.pattern = pattern;
  }
  const match = (at: Node, segments: string[], i: number): string | undefined => {
    if (i === segments.length) return at.pattern ?? at.rest;
    const fixed = at.fixed.get(segments[i]);
    return (fixed && match(fixed, segments, i + 1)) ?? (at.param && match(at.param, segments, i + 1)) ?? at.rest;
  };
  return (pathname) => {
    if (pathname.startsWith('/_next/')) return '/_next';
    return match(root, pathname.split('/').filter(Boolean), 0) ?? 'other';
  };
}
