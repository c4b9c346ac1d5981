import checkedIn from '@/openapi.json';

/** The parts of openapi.json the reference pages read. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
}

export interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  $ref?: string;
  description: string;
  'x-error-codes'?: string[];
  content?: { 'application/json': { schema: JsonSchema; examples?: Record<string, { summary?: string; value: unknown }>; example?: unknown } };
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: unknown[];
  /** The API key scope the operation needs (its contract in lib/api/contracts). */
  'x-required-scope'?: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema; examples?: Record<string, { value: unknown }>; example?: unknown } } };
  responses: Record<string, ResponseObject>;
}

export interface DocumentedOperation extends OperationObject {
  method: string;
  path: string;
  /** v1 or the back office. */
  api: 'v1' | 'admin';
}

export const openapi = checkedIn as unknown as {
  info: { title: string; description: string; version: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
  webhooks: Record<string, { post: OperationObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, ResponseObject>;
  };
  'x-limits': { max_body_bytes: number; webhook_retry_schedule_ms: number[] };
};

/** Follows an internal `#/components/...` reference. */
export function resolve<T>(node: T & { $ref?: string }): T {
  if (!node.$ref) return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((n, key) => (n as Record<string, unknown> | undefined)?.[key], openapi);
  return resolve(target as T & { $ref?: string });
}

export function operations(): DocumentedOperation[] {
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(openapi.paths)) {
    const api = item.servers?.[0]?.url.endsWith('/api/admin') ? 'admin' : 'v1';
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method] as OperationObject | undefined;
      if (op) out.push({ ...op, method, path, api });
    }
  }
  return out;
}

export const anchorOf = (op: { operationId: string }) => op.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
