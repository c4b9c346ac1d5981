import type { DocumentedOperation } from './openapi-document';

const PATH_EXAMPLES: Record<string, string> = {
  card_number: '4921583047261138',
  reference: 'bnk_Pq8sW2nX4cV7bR1e',
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  id: '42',
};

/** The first documented request example of an operation, if it takes a body. */
function requestExample(op: DocumentedOperation): unknown {
  const content = op.requestBody?.content['application/json'];
  return content ? Object.values(content.examples ?? {})[0]?.value : undefined;
}

const QUERY_EXAMPLES: Record<string, string> = {
  listCards: '?limit=15',
  listPayouts: '?page=1&limit=15',
  listPayments: '?page=1&limit=15',
  listEvents: '?undelivered=true',
  listDeliveries: '?mode=test',
};

function concretePath(op: DocumentedOperation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => PATH_EXAMPLES[name] ?? name);
}

const indent = (json: string, spaces: number) => json.replace(/\n/g, `\n${' '.repeat(spaces)}`);

export function curlSample(op: DocumentedOperation): string {
  const base = op.api === 'admin' ? '$APP_URL/api/admin' : '$BASE_URL';
  const lines = [`curl -X ${op.method.toUpperCase()} "${base}${concretePath(op)}${QUERY_EXAMPLES[op.operationId] ?? ''}"`];
  if (op.security?.length !== 0) lines.push(`  -H "Authorization: Bearer ${op.api === 'admin' ? '$ADMIN_TOKEN' : '$API_KEY'}"`);
  const body = requestExample(op);
  if (op.api === 'v1' && op.method === 'post') lines.push('  -H "Idempotency-Key: $(uuidgen)"');
  if (body !== undefined) lines.push('  -H "Content-Type: application/json"', `  -d '${JSON.stringify(body)}'`);
  return lines.join(' \\\n');
}

/** Arguments of the typed client's method, in its order: path parameters, then the body or query. */
function clientArguments(op: DocumentedOperation): string[] {
  const args = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => JSON.stringify(PATH_EXAMPLES[m[1]] ?? m[1]));
  const body = requestExample(op) as Record<string, unknown> | undefined;
  if (body && Object.keys(body).length === 1 && 'status' in body) args.push(JSON.stringify(body.status));
  else if (body !== undefined) args.push(indent(JSON.stringify(body, null, 2), 0));
  if (op.operationId === 'listCards') args.push('{ limit: 15 }');
  if (op.operationId === 'listPayouts' || op.operationId === 'listPayments') args.push('{ page: 1, limit: 15 }');
  if (op.operationId === 'listEvents') args.push('{ undelivered: true }');
  if (op.method === 'post') args.push('{ idempotencyKey: crypto.randomUUID() }');
  return args;
}

export function typescriptSample(op: DocumentedOperation): string {
  if (op.api === 'admin' || op.security?.length === 0) {
    const body = requestExample(op);
    const base = op.api === 'admin' ? 'process.env.APP_URL + "/api/admin"' : 'process.env.BASE_URL';
    return [
      `const res = await fetch(\`\${${base}}${concretePath(op)}\`, {`,
      `  method: '${op.method.toUpperCase()}',`,
      ...(op.security?.length === 0
        ? []
        : [`  headers: { authorization: \`Bearer \${process.env.ADMIN_TOKEN}\`${body !== undefined ? ", 'content-type': 'application/json'" : ''} },`]),
      ...(body !== undefined ? [`  body: JSON.stringify(${indent(JSON.stringify(body, null, 2), 2)}),`] : []),
      '});',
      'const answer = await res.json(); // { status, message, data } or { status, message, error }',
    ].join('\n');
  }
  return [
    "import { createGiftCardClient } from './lib/client/create-gift-card-client';",
    '',
    'const client = createGiftCardClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });',
    `const res = await client.${op.operationId}(${clientArguments(op).join(', ')});`,
    "if (res.status === 'success') {",
    '  console.log(res.data);',
    '} else {',
    '  console.error(res.httpStatus, res.message, res.error); // API errors are values, never thrown',
    '}',
  ].join('\n');
}
