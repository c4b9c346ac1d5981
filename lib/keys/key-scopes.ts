import { z } from 'zod';
import { ServiceError } from '../errors';
import { API_KEY_SCOPES, type ApiKeyScope } from '../validation';

/** The sentence the Developers page shows beside each scope's checkbox. */
export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  read: 'Read cards, payments, payouts, events and banks (every GET)',
  cards: 'Create, disable, enable and cancel cards',
  payments: 'Start payments (top-ups), refunds, and redemptions and holds at the till',
  payouts: 'Pay out of cards and top cards up from the business account',
};

/**
 * The scope each operation of `/api/v1` needs, keyed by method and the route's
 * folder under app/api/v1 (tests/key-scopes.test.ts holds every route file to
 * this table). An operation missing here needs every scope.
 */
export const OPERATION_SCOPES: Record<string, ApiKeyScope> = {
  'GET /banks': 'read',
  'GET /card': 'read',
  'POST /card': 'cards',
  'POST /card/batch': 'cards',
  'GET /card/[card_number]': 'read',
  'PATCH /card/[card_number]': 'cards',
  'DELETE /card/[card_number]': 'cards',
  // A till takes money from a card for the business, as a payment collects it: not a payout of the business's money.
  'POST /card/[card_number]/redemptions': 'payments',
  // A hold is a redemption in two steps: the till's scope.
  'POST /card/[card_number]/holds': 'payments',
  'GET /card/[card_number]/holds': 'read',
  'GET /card/holds/[hold_reference]': 'read',
  'POST /card/holds/[hold_reference]/capture': 'payments',
  'POST /card/holds/[hold_reference]/void': 'payments',
  'GET /card/payments': 'read',
  'POST /card/payments': 'payments',
  'POST /card/payments/[reference]/refund': 'payments',
  'GET /card/payment/[link_reference]/status': 'read',
  'POST /card/payment/[link_reference]/authorize': 'payments',
  'GET /card/payouts': 'read',
  'POST /card/payouts': 'payouts',
  'POST /card/payouts/batch': 'payouts',
  'GET /card/payout/[reference]/status': 'read',
  'GET /events': 'read',
  // A ledger top-up moves the business's own money out of its account, as a payout does.
  'POST /transfers': 'payouts',
  // The test helpers play the processor and the bank: they finish what the payments and payouts scopes start.
  'POST /test-helpers/payments/[link_reference]/complete': 'payments',
  'POST /test-helpers/payouts/[reference]/settle': 'payouts',
};

const API_PREFIX = '/api/v1';

interface Route {
  segments: string[];
  /** The scope of each method the table names for this route. */
  scopes: Map<string, ApiKeyScope>;
}

const isDynamic = (segment: string) => segment.startsWith('[');

/**
 * The table's routes, most specific first: static beats dynamic at the first
 * segment where two routes differ, as Next.js chooses between route folders,
 * so the first route that matches a path is the one Next.js serves it from.
 */
const ROUTES: Route[] = (() => {
  const byRoute = new Map<string, Route>();
  for (const [operation, scope] of Object.entries(OPERATION_SCOPES)) {
    const [method, route] = operation.split(' ');
    const entry = byRoute.get(route) ?? { segments: route.split('/').slice(1), scopes: new Map() };
    entry.scopes.set(method, scope);
    byRoute.set(route, entry);
  }
  const specificity = (r: Route) => r.segments.map((seg) => (isDynamic(seg) ? '1' : '0')).join('');
  return [...byRoute.values()].sort((a, b) => specificity(a).localeCompare(specificity(b)));
})();

/** The scope an `/api/v1` request needs, from its method and path; undefined when no operation of the table serves it. */
export function requiredScope(method: string, pathname: string): ApiKeyScope | undefined {
  if (!pathname.startsWith(`${API_PREFIX}/`)) return undefined;
  // Compared as sent, not decoded: Next.js routes `/card/%70ayouts` to the [card_number] folder, not to payouts.
  const segments = pathname.slice(API_PREFIX.length + 1).split('/');
  const route = ROUTES.find(
    (r) => r.segments.length === segments.length && r.segments.every((seg, i) => (isDynamic(seg) ? segments[i] !== '' : seg === segments[i])),
  );
  // Next.js chooses the route's folder by the path alone, then the method within it; HEAD is answered by the GET handler.
  return route?.scopes.get(method === 'HEAD' ? 'GET' : method);
}

/**
 * Refuses a request whose key lacks the scope its operation needs, before
 * anything else is read or done. A request the table cannot place needs every scope.
 */
export function requireScope(scopes: readonly ApiKeyScope[], method: string, url: string): void {
  const scope = requiredScope(method, new URL(url).pathname);
  if (scope === undefined) {
    if (API_KEY_SCOPES.every((s) => scopes.includes(s))) return;
    throw new ServiceError('forbidden', 'This API key is restricted; only a key with every scope may call this operation.');
  }
  if (!scopes.includes(scope)) throw new ServiceError('forbidden', `This API key lacks the ${scope} scope.`);
}

const scopeList = API_KEY_SCOPES.join(', ');

/** `scopes` of a new key: a non-empty list of distinct scope names, kept in the canonical order. */
export const scopesSchema = z
  .array(z.unknown(), { error: `scopes must be an array of scope names: ${scopeList}.` })
  .min(1, { error: 'Choose at least one scope.' })
  .refine((list) => list.every((s) => (API_KEY_SCOPES as readonly unknown[]).includes(s)), {
    error: `Each scope must be one of ${scopeList}.`,
  })
  .refine((list) => new Set(list).size === list.length, { error: 'Name each scope once.' })
  .transform((list) => API_KEY_SCOPES.filter((s) => list.includes(s)));
