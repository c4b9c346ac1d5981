import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createGiftCardClient } from '../lib/client/create-gift-card-client';
import { buildDocument } from '../lib/openapi/build-document';
import { API_CONTRACTS } from '../lib/api/contracts/api-contracts';
import { listApiRoutes } from './hardening/route-list';
import { documentValidator } from './openapi-validator';

const ROOT = path.resolve(import.meta.dirname, '..');
const checkedIn = JSON.parse(fs.readFileSync(path.join(ROOT, 'openapi.json'), 'utf8'));
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `app/api/v1/card/[card_number]/route.ts` exporting GET and PATCH -> `v1 GET /card/{card_number}`, `v1 PATCH ...`. */
function routeOperations(): string[] {
  return listApiRoutes()
    .map(({ route, method }) => {
      const [, api, rest] = /^\/api\/(v1|admin)(.*)$/.exec(route)!;
      return `${api} ${method} ${rest.replace(/\[([^\]]+)\]/g, '{$1}')}`;
    })
    .sort();
}

function documentOperations(doc: any): string[] {
  const found: string[] = [];
  for (const [route, item] of Object.entries<any>(doc.paths)) {
    const api = item.servers?.[0]?.url.endsWith('/api/admin') ? 'admin' : 'v1';
    for (const m of METHODS) if (item[m.toLowerCase()]) found.push(`${api} ${m} ${route}`);
  }
  return found.sort();
}

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(checkedIn));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route under app/api/v1 and app/api/admin, and nothing else', () => {
    const routes = routeOperations();
    expect(routes.length).toBeGreaterThan(25);
    expect(documentOperations(checkedIn)).toEqual(routes);
  });

  it('is what npm run openapi generates from the code (regenerate and commit it when this fails)', () => {
    expect(checkedIn).toEqual(JSON.parse(JSON.stringify(buildDocument())));
  });

  it('has a schema for every answer that compiles under JSON Schema 2020-12, and every example fits its schema', () => {
    const v = documentValidator(checkedIn);
    let examples = 0;
    const check = (pointer: string, value: unknown) => {
      const errors = v.validate(pointer, value);
      expect(errors, `${pointer} example ${JSON.stringify(value).slice(0, 200)}`).toEqual([]);
      examples++;
    };
    for (const [route, item] of Object.entries<any>(checkedIn.paths)) {
      for (const m of METHODS) {
        const op = item[m.toLowerCase()];
        if (!op) continue;
        const base = `/paths/${v.escape(route)}/${m.toLowerCase()}`;
        for (const [name, ex] of Object.entries<any>(op.requestBody?.content['application/json'].examples ?? {})) {
          const alternatives = op.requestBody.content['application/json'].schema.oneOf;
          check(alternatives ? `/components/schemas/${name}` : `${base}/requestBody/content/application~1json/schema`, ex.value);
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const resolved = response.$ref ? v.resolve(response.$ref) : response;
          const at = response.$ref ? response.$ref.slice(1) : `${base}/responses/${status}`;
          for (const ex of Object.values<any>(resolved.content?.['application/json']?.examples ?? {}))
            check(`${at}/content/application~1json/schema`, ex.value);
        }
      }
    }
    for (const [event, item] of Object.entries<any>(checkedIn.webhooks)) {
      check(`/webhooks/${v.escape(event)}/post/requestBody/content/application~1json/schema`, item.post.requestBody.content['application/json'].example);
    }
    expect(examples).toBeGreaterThan(100);
  });

  it('lists every error of lib/errors.ts an operation raises, under its status, with its title', () => {
    const create = checkedIn.paths['/card'].post.responses;
    expect(create['409']['x-error-codes']).toEqual(expect.arrayContaining(['card_exists', 'idempotency_key_reused', 'request_in_progress']));
    expect(create['404'].content['application/json'].schema.properties.message.enum).toEqual(['User not found']);
    expect(checkedIn.paths['/card/payouts'].post.responses['502'].content['application/json'].schema.properties.message.enum).toEqual([
      'Failed to initiate payout',
    ]);
    expect(checkedIn.paths['/card/payouts'].post.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(checkedIn.paths['/businesses'].post.security).toEqual([{ adminToken: [] }]);
    expect(checkedIn.paths['/openapi.json'].get.security).toEqual([]);
    expect(Object.keys(checkedIn.webhooks)).toEqual([
      'payment.success',
      'payment.failed',
      'payment.cancelled',
      'payment.refunded',
      'payment.refund_failed',
      'card.redeemed',
      'hold.created',
      'hold.captured',
      'hold.voided',
      'hold.expired',
      'card.expired',
      'message.sent',
      'message.failed',
      'order.paid',
      'payout.success',
      'payout.failed',
    ]);
    const headers = checkedIn.webhooks['payout.success'].post.parameters.map((p: any) => p.name);
    expect(headers).toEqual(expect.arrayContaining(['service-signature', 'x-service-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']));
  });

  it('has a typed client method for every operation of the REST API', () => {
    const client = createGiftCardClient({ baseUrl: 'http://unused', apiKey: 'sk_test_unused' });
    const restOps = API_CONTRACTS.map((op) => op.operationId);
    expect(Object.keys(client).sort()).toEqual(restOps.sort());
  });
});
