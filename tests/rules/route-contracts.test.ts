import { describe, expect, it } from 'vitest';
import { API_CONTRACTS, DECLARED_CONTRACTS } from '../../lib/api/contracts/api-contracts';
import { cardContracts } from '../../lib/api/contracts/cards';
import type { Operation } from '../../lib/api/contracts/contract';
import { openApiDocumentContract } from '../../lib/api/contracts/documentation';
import { eventContracts } from '../../lib/api/contracts/events';
import { holdContracts } from '../../lib/api/contracts/holds';
import { locationContracts } from '../../lib/api/contracts/locations';
import { paymentContracts } from '../../lib/api/contracts/payments';
import { payoutContracts } from '../../lib/api/contracts/payouts';
import { shopContracts } from '../../lib/api/contracts/shop';
import { routeContractProblems, v1RouteFiles } from './route-contracts';

/** Each contract by the name a route file hands it under: `payoutContracts.createPayout`. */
const BY_NAME: Record<string, Operation> = {
  openApiDocumentContract,
  ...Object.fromEntries(
    Object.entries({ cardContracts, eventContracts, holdContracts, locationContracts, paymentContracts, payoutContracts, shopContracts }).flatMap(
      ([resource, list]) => Object.values<Operation>(list).map((c) => [`${resource}.${c.operationId}`, c]),
    ),
  ),
};

describe('one contract per operation of /api/v1', () => {
  it('every method a route file under app/api/v1 exports is served by one contract of its method and path, and every contract by one route', () => {
    const files = v1RouteFiles();
    expect(files.length).toBeGreaterThan(20);
    expect(routeContractProblems(files, BY_NAME)).toEqual([]);
  });

  it('refuses a route without a contract, one with another operation’s contract, and a contract no route serves', () => {
    const files = v1RouteFiles();
    const payouts = files.find((f) => f.route === '/card/payouts')!;
    const planted = [
      ...files.filter((f) => f !== payouts),
      // The payouts route as it was before contracts: its POST hands apiRoute only a handler.
      { route: '/card/payouts', source: payouts.source.replace('apiRoute(\n  payoutContracts.createPayout,', 'apiRoute(') },
      { route: '/card/refunds', source: "export const GET = apiRoute(paymentContracts.listPayments, async () => ({ message: '', data: null }));" },
    ];
    expect(planted.find((f) => f.route === '/card/payouts')!.source).not.toContain('payoutContracts.createPayout');
    expect(routeContractProblems(planted, BY_NAME)).toEqual([
      'POST /card/payouts is exported without a contract handed to apiRoute or publicRoute',
      'GET /card/refunds is served with paymentContracts.listPayments, which declares GET /card/payments',
      'paymentContracts.listPayments is served by 2 route exports: GET /card/payments, GET /card/refunds',
      'payoutContracts.createPayout is served by 0 route exports',
    ]);
  });

  it('the OpenAPI document lists every declared contract once', () => {
    const listed = API_CONTRACTS.map((c) => c.operationId);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(DECLARED_CONTRACTS.map((c) => c.operationId).sort());
  });

  it('a GET needs the read scope, and nothing else does', () => {
    for (const c of DECLARED_CONTRACTS) expect([c.operationId, c.scope === 'read']).toEqual([c.operationId, c.method === 'get']);
  });
});
