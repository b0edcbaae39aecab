import { expect } from 'vitest';

/**
 * What the OpenAPI document must say, written down apart from it: the operations of docs/api.md
 * and the other docs pages, which take the key, the error statuses each answers with and their
 * `error` strings. openapi.test.ts and the openapi-responses-*.ts cases check the served document
 * and real responses against these.
 */

/** The ten endpoints of docs/api.md and those the other docs pages add, and whether each takes the key. */
export const ENDPOINTS = [
  { op: 'POST /api/webhook/projects', keyed: true },
  { op: 'GET /api/projects/{slug}', keyed: false },
  { op: 'DELETE /api/projects/{slug}', keyed: true },
  { op: 'POST /api/discovery/tasks', keyed: true },
  { op: 'GET /api/discovery/tasks', keyed: true },
  { op: 'GET /api/discovery/tasks/{id}', keyed: false },
  { op: 'PATCH /api/discovery/tasks/{id}', keyed: true },
  { op: 'POST /api/discovery/tasks/{id}/complete', keyed: true },
  { op: 'POST /api/discovery/check-duplicates', keyed: true },
  { op: 'POST /api/webhook/check-duplicates', keyed: true },
  { op: 'POST /api/discovery/tasks/claim', keyed: true },
  { op: 'POST /api/discovery/tasks/{id}/heartbeat', keyed: true },
  { op: 'POST /api/discovery/tasks/{id}/release', keyed: true },
  { op: 'GET /api/discovery/stats', keyed: true },
  { op: 'GET /api/changes', keyed: true },
  { op: 'POST /api/webhooks', keyed: true },
  { op: 'GET /api/webhooks', keyed: true },
  { op: 'GET /api/webhooks/{id}', keyed: true },
  { op: 'DELETE /api/webhooks/{id}', keyed: true },
  { op: 'GET /api/webhooks/{id}/deliveries', keyed: true },
  { op: 'GET /api/webhooks/{id}/deliveries/{deliveryId}', keyed: true },
  { op: 'GET /api/projects', keyed: false },
  { op: 'GET /api/tags', keyed: false },
  { op: 'PATCH /api/tags/{slug}', keyed: true },
  { op: 'POST /api/tags/{slug}/merge', keyed: true },
  { op: 'POST /api/tags/{slug}/unmerge', keyed: true },
  { op: 'GET /api/projects/by-url', keyed: false },
  { op: 'POST /api/projects/{slug}/merge', keyed: true },
  { op: 'GET /api/projects/duplicates', keyed: true },
  { op: 'GET /api/projects/{slug}/revisions', keyed: false },
  { op: 'GET /api/projects/{slug}/revisions/{revision}', keyed: false },
  { op: 'GET /api/projects/{slug}/revisions/{revision}/diff', keyed: false },
  { op: 'POST /api/projects/{slug}/revert', keyed: true },
  { op: 'GET /api/projects/deleted', keyed: true },
  { op: 'POST /api/projects/deleted/{id}/restore', keyed: true },
  { op: 'PUT /api/projects/{slug}/lock', keyed: true },
  { op: 'DELETE /api/projects/{slug}/lock', keyed: true },
  { op: 'GET /api/search/synonyms', keyed: false },
  { op: 'PUT /api/search/synonyms', keyed: true },
  { op: 'GET /api/search/pins', keyed: false },
  { op: 'PUT /api/search/pins', keyed: true },
  { op: 'POST /api/keys', keyed: true },
  { op: 'GET /api/keys', keyed: true },
  { op: 'GET /api/keys/self', keyed: true },
  { op: 'DELETE /api/keys/{id}', keyed: true },
  { op: 'POST /api/keys/{id}/rotate', keyed: true },
  // curation (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see)
  { op: 'PATCH /api/projects/{slug}', keyed: true },
  { op: 'POST /api/projects/duplicates/dismiss', keyed: true },
  { op: 'DELETE /api/projects/duplicates/dismiss', keyed: true },
  { op: 'PATCH /api/webhooks/{id}', keyed: true },
  { op: 'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver', keyed: true },
  { op: 'POST /api/webhooks/{id}/ping', keyed: true },
  { op: 'POST /api/webhooks/{id}/rotate-secret', keyed: true },
  // related projects
  { op: 'GET /api/projects/{slug}/related', keyed: false },
  // restore from an export (docs/operating.md#restore-from-an-export)
  { op: 'GET /api/restore', keyed: true },
  { op: 'POST /api/restore', keyed: true },
] as const;
export type Op = (typeof ENDPOINTS)[number]['op'];

/** The error statuses each operation can answer with (the `error` strings of docs/api.md). */
const ERRORS: Record<number, string[]> = {
  301: ['Moved Permanently'],
  400: ['Validation error'],
  401: ['Unauthorized'],
  403: ['Forbidden'],
  404: ['Not Found'],
  408: ['Request Timeout'],
  409: ['Conflict'],
  410: ['Gone'],
  412: ['Precondition Failed'],
  413: ['Payload too large'],
  431: ['Request header fields too large'],
  500: ['Internal server error'],
};
/**
 * The curation operations
 * (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see), whose
 * statuses the rules below do not derive.
 */
const CURATION: Partial<Record<Op, number[]>> = {
  'PATCH /api/projects/{slug}': [400, 401, 403, 404, 408, 409, 412, 413, 431, 500],
  'POST /api/projects/duplicates/dismiss': [400, 401, 403, 404, 408, 409, 413, 431, 500],
  'DELETE /api/projects/duplicates/dismiss': [400, 401, 403, 404, 408, 409, 413, 431, 500],
  'PATCH /api/webhooks/{id}': [400, 401, 403, 404, 408, 413, 431, 500],
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': [
    400, 401, 403, 404, 408, 409, 410, 413, 431, 500,
  ],
  'POST /api/webhooks/{id}/ping': [400, 401, 403, 404, 408, 413, 431, 500],
  'POST /api/webhooks/{id}/rotate-secret': [400, 401, 403, 404, 408, 413, 431, 500],
};
export function expectedErrors(op: Op, keyed: boolean): Record<string, string[]> {
  const [method, path] = op.split(' ') as [string, string];
  const curation = CURATION[op];
  if (curation) return Object.fromEntries(curation.map((status) => [String(status), ERRORS[status]!]));
  const statuses = [
    ...(op === 'GET /api/projects/{slug}' ||
    (method === 'GET' && (path.includes('/revisions') || path.endsWith('/related')))
      ? [301]
      : []),
    400,
    ...(keyed ? [401] : []),
    // every keyed operation needs a scope, but the one that tells a key what it may do
    ...(keyed && path !== '/api/keys/self' ? [403] : []),
    ...(path.includes('{') || path.endsWith('/by-url') ? [404] : []),
    408,
    ...(method === 'PATCH' ||
    /\/(complete|heartbeat|release|merge|unmerge|revert|restore|lock|rotate)$/.test(path) ||
    op === 'DELETE /api/projects/{slug}'
      ? op === 'GET /api/restore'
        ? []
        : [409]
      : []),
    ...(path === '/api/changes' ? [410] : []),
    ...(method !== 'GET' ? [413] : []),
    431,
    500,
  ];
  const errors = Object.fromEntries(statuses.map((status) => [String(status), ERRORS[status]!]));
  if (path.endsWith('/complete')) errors['400'] = ['Validation error', 'Invalid exploration data format'];
  return errors;
}

export const KEY_SCHEME = { type: 'apiKey', in: 'header', name: 'x-api-key' };
export const ENVELOPE_REF = '#/components/schemas/ErrorResponse';
export const DOC_ID = 'https://directory.test/openapi.json';

export const operation = (doc: any, op: string) => {
  const [method, path] = op.split(' ') as [string, string];
  return doc.paths[path]?.[method.toLowerCase()];
};
export const deref = (doc: any, schema: any): any =>
  schema?.$ref ? deref(doc, doc.components.schemas[schema.$ref.split('/').pop()]) : schema;
/** The `error` strings an error response allows: its schema is one kind, or oneOf kinds, each the envelope narrowed. */
export function errorStrings(doc: any, response: any): string[] {
  const schema = response.content['application/json'].schema;
  const kinds = (schema.oneOf ?? [schema]).map((s: any) => deref(doc, s));
  return kinds.map((kind: any) => {
    expect(kind.allOf[0]).toEqual({ $ref: ENVELOPE_REF });
    return kind.allOf[1].properties.error.const;
  });
}
/** A JSON pointer segment, as a URI fragment part. */
export const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
