import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../webhooks/delivery-worker';
import { ERRORS, type ErrorCode } from '../errors';
import { MAX_BODY_BYTES } from '../api/read-body';
import { API_CONTRACTS } from '../api/contracts/api-contracts';
import { openApiDocumentContract } from '../api/contracts/documentation';
import type { Operation as Declared } from '../api/contracts/contract';
import { responseRegistry } from '../api/contracts/schemas';
import type { ApiKeyScope } from '../validation';
import { ADMIN_OPERATIONS } from './admin-operations';
import { type Api, commonErrors, ERROR_CONDITIONS } from './error-conditions';
import { type Json, ref, webhookItems } from './webhook-items';

/** One operation of the document: a contract of /api/v1 (with its scope), the public document itself, or a back office operation. */
type Operation = Declared & { api: Api; scope?: ApiKeyScope; public?: boolean };

/** The document's operations in the order it lists them: the API's contracts, then the back office. */
const OPERATIONS: Operation[] = [
  ...API_CONTRACTS.map((c) => ({ ...c, api: 'v1' as const })),
  { ...openApiDocumentContract, api: 'v1' },
  ...ADMIN_OPERATIONS.map((op) => ({ ...op, api: 'admin' as const })),
];

/** zod's JSON Schema of a request, as a client may send it; `$schema` dropped (OpenAPI 3.1 documents use 2020-12). */
function requestSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    // `z.unknown().pipe(amountSchema)` checks the type itself; a client must still send the piped shape.
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
      if (def.type === 'pipe' && def.in?._zod.def.type === 'unknown') Object.assign(ctx.jsonSchema, requestSchema(def.out!));
    },
  }) as Json;
  delete json.$schema;
  return json;
}

/** zod spells out date-time as a long regex beside `format`; the format alone says it, in a few characters instead of 300. */
function tidySchemas(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.format === 'date-time') delete o.pattern;
  // zod's z.int() bounds are the safe-integer range: true of every JSON number we send, and noise to a reader.
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  for (const v of Object.values(o)) tidySchemas(v);
}

function responseComponents(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(responseRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

function dataSchema(data: z.ZodType | null): Json {
  if (data === null) return { type: 'null' };
  const meta = responseRegistry.get(data);
  if (meta) return ref(meta.id);
  const def = data._zod.def as { type: string; element?: z.ZodType };
  if (def.type === 'array' && def.element && responseRegistry.get(def.element)) return { type: 'array', items: ref(responseRegistry.get(def.element)!.id) };
  throw new Error('Response data must be a registered schema, an array of one, or null');
}

const messageSchema = (message: string | readonly string[]) => (typeof message === 'string' ? { const: message } : { enum: message });

function errorExample(code: ErrorCode): Json {
  return {
    summary: ERRORS[code][1],
    value:
      code === 'validation_error'
        ? { status: 'error', message: 'Validation error', error: { amount: 'Amount must be at least 100 minor units (1 unit of currency).' } }
        : {
            status: 'error',
            message: ERRORS[code][1],
            error: ERROR_CONDITIONS[code] ?? ERRORS[code][1],
            ...(code === 'internal' && { request_id: 'req_8Hk2Lm4Nq6Rs8Tv0Wx2Y' }),
          },
  };
}

/** The answer of one status that can carry any of these error codes. */
function errorResponse(list: ErrorCode[]): Json {
  const titles = list.filter((c) => c !== 'validation_error').map((c) => ERRORS[c][1]);
  const alternatives: Json[] = [];
  if (list.includes('validation_error')) alternatives.push(ref('ValidationErrorEnvelope'));
  if (titles.length) alternatives.push({ allOf: [ref('ErrorEnvelope')], properties: { message: { enum: [...new Set(titles)] } } });
  return {
    description: list.map((c) => `${ERRORS[c][1]}: ${ERROR_CONDITIONS[c] ?? ''}`.replace(/: $/, '')).join('. '),
    headers: {
      'x-request-id': { $ref: '#/components/headers/RequestId' },
      ...(list.includes('rate_limited') && {
        'retry-after': { description: 'Seconds to wait before trying again', schema: { type: 'string', pattern: '^\\d+$' } },
      }),
    },
    'x-error-codes': list,
    content: {
      'application/json': {
        schema: alternatives.length === 1 ? alternatives[0] : { anyOf: alternatives },
        examples: Object.fromEntries(list.map((c) => [c, errorExample(c)])),
      },
    },
  };
}

/** Statuses whose only causes are the ones every operation shares: answered by reference. */
const SHARED_ERROR_RESPONSES: Record<string, ErrorCode> = {
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  PayloadTooLarge: 'payload_too_large',
  TooManyRequests: 'rate_limited',
  InternalError: 'internal',
};

function errorResponses(op: Operation): Record<string, Json> {
  const codes = [...new Set<ErrorCode>([...op.errors, ...commonErrors(op.api, op.method, op.public)])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code][0], [...(byStatus.get(ERRORS[code][0]) ?? []), code]);
  const out: Record<string, Json> = {};
  const scope = scopeOf(op);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (status === 403 && scope) {
      out[String(status)] = scopeRefusal(errorResponse(list), scope);
      continue;
    }
    const shared = Object.entries(SHARED_ERROR_RESPONSES).find(([, code]) => list.length === 1 && list[0] === code);
    out[String(status)] = shared ? { $ref: `#/components/responses/${shared[0]}` } : errorResponse(list);
  }
  return out;
}

/** The scope an API key needs for this operation: its contract's, the one apiRoute checks. */
const scopeOf = (op: Operation) => op.scope;

/** An operation's 403, saying which scope it needs and showing the refusal a key without it gets. */
function scopeRefusal(response: Json, scope: ApiKeyScope): Json {
  const content = response.content['application/json'];
  return {
    ...response,
    description: `${response.description}. Needs an API key with the ${scope} scope`,
    content: {
      'application/json': {
        ...content,
        examples: {
          ...content.examples,
          missing_scope: {
            summary: `Key without the ${scope} scope`,
            value: { status: 'error', message: 'Forbidden', error: `This API key lacks the ${scope} scope.` },
          },
        },
      },
    },
  };
}

function parameters(op: Operation): Json[] {
  const params: Json[] = [];
  for (const [name, description] of Object.entries(op.pathParams ?? {}))
    params.push({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  for (const q of op.query ?? []) {
    const schema = z.toJSONSchema(q.schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Json;
    delete schema.$schema;
    // The route reads whole numbers only (digits, then Number): say integer.
    if (schema.type === 'number') schema.type = 'integer';
    if (q.default !== undefined) schema.default = q.default;
    params.push({ name: q.name, in: 'query', required: false, description: q.description, schema });
  }
  if (op.api === 'v1' && op.method === 'post') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return params;
}

/** An operation's second success (202): what it answers when it waits for something. */
function acceptedResponse(accepted: NonNullable<Operation['accepted']>): Json {
  return {
    description: accepted.message,
    headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { status: { const: 'success' }, message: messageSchema(accepted.message), data: dataSchema(accepted.data) },
          required: ['status', 'message', 'data'],
          additionalProperties: false,
        },
        examples: Object.fromEntries(
          Object.entries(accepted.examples).map(([name, data]) => [name, { value: { status: 'success', message: accepted.message, data } }]),
        ),
      },
    },
  };
}

function operationObject(op: Operation): Json {
  const success: Json = op.public
    ? {
        description: 'The OpenAPI 3.1 document',
        content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
      }
    : {
        description: typeof op.success.message === 'string' ? op.success.message : op.success.message.join(' / '),
        headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { status: { const: 'success' }, message: messageSchema(op.success.message), data: dataSchema(op.success.data) },
              required: ['status', 'message', 'data'],
              additionalProperties: false,
            },
            examples: Object.fromEntries(
              Object.entries(op.success.examples).map(([name, data]) => [
                name,
                { value: { status: 'success', message: typeof op.success.message === 'string' ? op.success.message : op.success.message[0], data } },
              ]),
            ),
          },
        },
      };
  const out: Json = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description && { description: op.description }),
    ...(scopeOf(op) && { 'x-required-scope': scopeOf(op) }),
    ...(op.public ? { security: [] } : op.api === 'admin' ? { security: [{ adminToken: [] }] } : {}),
  };
  const params = parameters(op);
  if (params.length) out.parameters = params;
  if (op.body) {
    const names = Object.keys(op.body.schemas);
    out.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: names.length === 1 ? ref(names[0]) : { oneOf: names.map(ref) },
          examples: Object.fromEntries(Object.entries(op.body.examples).map(([name, value]) => [name, { value }])),
        },
      },
    };
  }
  const accepted = !op.public && op.accepted ? { [String(op.accepted.status)]: acceptedResponse(op.accepted) } : {};
  out.responses = { [String(op.success.status)]: success, ...accepted, ...errorResponses(op) };
  return out;
}

/** The OpenAPI 3.1 document of the REST API and the back office, from the schemas the routes parse with. */
export function buildDocument(): Json {
  const schemas: Json = responseComponents();
  for (const op of OPERATIONS) for (const [name, s] of Object.entries(op.body?.schemas ?? {})) schemas[name] = requestSchema(s);

  const paths: Json = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??=
      op.api === 'admin'
        ? { servers: [{ url: '{app_url}/api/admin', description: 'Provider back office', variables: { app_url: { default: 'http://localhost:3000' } } }] }
        : {};
    const item = paths[op.path];
    item[op.method] = operationObject(op);
  }

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Gift Card Service API',
      version: '1.0.0',
      description:
        'Issue stored-value gift cards, top them up with payments and transfers, and pay out from them. Amounts are integers in minor units (100 = 1 unit of currency). Every answer is an envelope: `{status: "success", message, data}` or `{status: "error", message, error}`. The API key selects the mode: `sk_test_` keys see test data only, `sk_live_` keys live data only.',
    },
    servers: [
      { url: '{app_url}/api/v1', description: 'REST API', variables: { app_url: { default: 'http://localhost:3000', description: 'APP_URL of the service' } } },
    ],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Cards', description: 'Gift cards: create, read, enable or disable, cancel' },
      { name: 'Holds', description: 'A till sets card money aside, then captures or voids it' },
      { name: 'Payments', description: 'Top-ups by hosted checkout or direct wallet charge' },
      { name: 'Payouts', description: 'Money out of a card: B2B, card-to-card or bank' },
      { name: 'Transfers', description: 'Ledger top-up of a card from the business account' },
      { name: 'Banks', description: 'Bank and wallet slugs' },
      { name: 'Events', description: 'Webhook events, for catching up' },
      { name: 'Shop', description: 'Cards bought for someone on your shop (/shop/{slug})' },
      { name: 'Test helpers', description: 'Test keys only: play the bank or the processor' },
      { name: 'Documentation', description: 'This document' },
      { name: 'Back office', description: 'The provider’s staff and automation: {APP_URL}/api/admin with the ADMIN_TOKEN' },
      { name: 'Webhooks', description: 'What the service sends to your URL' },
    ],
    paths,
    webhooks: webhookItems(),
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_test_… or sk_live_…',
          description: 'Your secret API key: `Authorization: Bearer <API_KEY>`. Keep it on your server.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The back office token: `Authorization: Bearer <ADMIN_TOKEN>`.' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Up to 255 characters. The first answer is kept for 24 hours per API key: a retry with the same key and body gets the same status and body; the same key with another body gets 409 Idempotency key reused; a retry while the first still runs gets 409 Request in progress.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      responses: Object.fromEntries(Object.entries(SHARED_ERROR_RESPONSES).map(([name, code]) => [name, errorResponse([code])])),
      headers: { RequestId: { description: 'The id of this request, to quote when reporting a problem', schema: { type: 'string' } } },
    },
    'x-limits': { max_body_bytes: MAX_BODY_BYTES, webhook_retry_schedule_ms: DEFAULT_RETRY_SCHEDULE_MS },
  };
  tidySchemas(document);
  return document;
}
