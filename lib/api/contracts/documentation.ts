import type { PublicContract } from './contract';

/** The one operation of `/api/v1` served without a key: this document. */
export const openApiDocumentContract: PublicContract = {
  public: true,
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  tag: 'Documentation',
  summary: 'This OpenAPI document',
  description: 'Served without authentication.',
  success: { status: 200, message: '', data: null, examples: {} },
  errors: [],
};
