import { connect as netConnect } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import { pruneChanges, sql } from '@directory/db';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  project,
  type Reply,
  startServer,
  type TestServer,
  targets,
  uniqueUrl,
  useServer,
} from './helpers.ts';

/** The ten endpoints of docs/api.md and those the other docs pages add, and whether each takes the key. */
const ENDPOINTS = [
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
type Op = (typeof ENDPOINTS)[number]['op'];

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
function expectedErrors(op: Op, keyed: boolean): Record<string, string[]> {
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

const KEY_SCHEME = { type: 'apiKey', in: 'header', name: 'x-api-key' };
const ENVELOPE_REF = '#/components/schemas/ErrorResponse';
const DOC_ID = 'https://directory.test/openapi.json';

const operation = (doc: any, op: string) => {
  const [method, path] = op.split(' ') as [string, string];
  return doc.paths[path]?.[method.toLowerCase()];
};
const deref = (doc: any, schema: any): any =>
  schema?.$ref ? deref(doc, doc.components.schemas[schema.$ref.split('/').pop()]) : schema;
/** The `error` strings an error response allows: its schema is one kind, or oneOf kinds, each the envelope narrowed. */
function errorStrings(doc: any, response: any): string[] {
  const schema = response.content['application/json'].schema;
  const kinds = (schema.oneOf ?? [schema]).map((s: any) => deref(doc, s));
  return kinds.map((kind: any) => {
    expect(kind.allOf[0]).toEqual({ $ref: ENVELOPE_REF });
    return kind.allOf[1].properties.error.const;
  });
}
/** A JSON pointer segment, as a URI fragment part. */
const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

describe.each(targets)('the OpenAPI document on $name', (target) => {
  // A short request timeout, so that the 408 of a stalled request can be seen.
  const s = useServer(target, {
    timeouts: { requestTimeoutMs: 8_000, headersTimeoutMs: 2_000, keepAliveTimeoutMs: 5_000 },
  });
  let doc: any;
  let ajv: Ajv2020;
  beforeAll(async () => {
    const reply = await s.call('GET', '/api/openapi.json', { key: false });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    doc = reply.json;
    // The document is the schema store: `#/components/schemas/…` resolve inside it.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, DOC_ID);
  });

  describe('as a document', () => {
    it('is a valid OpenAPI 3.1 document', async () => {
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info).toMatchObject({ title: 'Project Directory API', version: expect.any(String) });
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    });

    it('has exactly the operations of the contract, the queue and the change feed', () => {
      const ops = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      );
      // and the streamed export, which export.test.ts checks against the server
      expect(ops.sort()).toEqual([...ENDPOINTS.map((e) => e.op), 'GET /api/export'].sort());
    });

    it('declares the x-api-key scheme and applies it to exactly the keyed operations', () => {
      expect(doc.components.securitySchemes).toEqual({
        ApiKey: KEY_SCHEME,
        Bearer: { type: 'http', scheme: 'bearer' },
      });
      expect(doc.security).toBeUndefined();
      for (const { op, keyed } of ENDPOINTS) {
        // public: explicitly none; keyed with a body: the header, or the body's apiKey (the empty alternative)
        const header = [{ ApiKey: [] }, { Bearer: [] }];
        const expected = !keyed ? [] : op.startsWith('GET') ? header : [...header, {}];
        expect(operation(doc, op).security, op).toEqual(expected);
      }
    });

    it('documents apiKey in the body of the keyed operations whose body is read', () => {
      for (const { op, keyed } of ENDPOINTS) {
        const body = operation(doc, op).requestBody;
        const apiKey = body?.content['application/json'].schema.properties.apiKey;
        if (keyed && !op.startsWith('GET')) expect(apiKey, op).toMatchObject({ type: 'string' });
        else expect(apiKey, op).toBeUndefined();
      }
      // DELETE has no other body: the body is optional there, and required where it holds the input
      expect(operation(doc, 'DELETE /api/projects/{slug}').requestBody.required).toBe(false);
      expect(operation(doc, 'POST /api/webhook/projects').requestBody.required).toBe(true);
    });

    it("documents the list's query parameters as the server reads them", () => {
      const params = Object.fromEntries(
        operation(doc, 'GET /api/discovery/tasks').parameters.map((p: any) => [
          `${p.in} ${p.name}`,
          p.schema,
        ]),
      );
      expect(params).toEqual({
        'query status': { type: 'string', enum: ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] },
        'query limit': expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 10 }),
        'query offset': expect.objectContaining({ type: 'integer', minimum: 0, default: 0 }),
        'query cursor': expect.objectContaining({ type: 'string', minLength: 1 }),
      });
    });

    it('documents the error statuses of each operation, each in the envelope with its error strings', () => {
      for (const { op, keyed } of ENDPOINTS) {
        const { 200: ok, 201: created, ...errors } = operation(doc, op).responses;
        const success = ok ?? created;
        expect(success, op).toBeDefined();
        const documented = Object.fromEntries(
          Object.entries(errors).map(([status, response]) => [status, errorStrings(doc, response)]),
        );
        expect(documented, op).toEqual(expectedErrors(op, keyed));
      }
      expect(doc.components.schemas.ErrorResponse).toMatchObject({
        type: 'object',
        required: ['success', 'error', 'details'],
        properties: { success: { const: false }, details: { type: 'array', items: { type: 'string' } } },
      });
    });

    it('keeps none of the tRPC-shaped error schemas', () => {
      const text = JSON.stringify(doc);
      expect(text).not.toContain('error.BAD_REQUEST');
      expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
    });
  });

  describe('real responses match it', () => {
    /** Documented status → error strings seen, per operation. */
    const seen = new Map<Op, Map<string, Set<string>>>();
    const validators = new Map<string, ValidateFunction>();

    /** The reply's status is documented for the operation, and its body valid against that response's schema. */
    function conforms(op: Op, reply: Reply, status: number) {
      expect(reply.status, `${op}: ${reply.text.slice(0, 300)}`).toBe(status);
      const response = operation(doc, op).responses[String(reply.status)];
      expect(response, `${op} answered ${reply.status}, which its document does not list`).toBeDefined();
      const [method, path] = op.split(' ') as [string, string];
      const pointer = ['paths', path, method.toLowerCase(), 'responses', String(reply.status)]
        .concat(['content', 'application/json', 'schema'])
        .map(segment)
        .join('/');
      const key = `${op} ${reply.status}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
        validators.set(key, validate);
      }
      const valid = validate(reply.json);
      expect(valid, `${key}: ${ajv.errorsText(validate.errors)}\n${reply.text.slice(0, 500)}`).toBe(true);
      const statuses = seen.get(op) ?? new Map<string, Set<string>>();
      seen.set(op, statuses);
      const errors = statuses.get(String(reply.status)) ?? new Set<string>();
      statuses.set(String(reply.status), errors);
      if (reply.json.success === false) errors.add(reply.json.error);
    }

    const call = (op: Op, params: Record<string, string>, options?: Parameters<TestServer['call']>[2]) => {
      const [method, template] = op.split(' ') as [string, string];
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
      return s.call(method, path, options);
    };
    const tooLarge = { raw: `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}` };
    const hugeHeaders = { headers: { 'x-padding': 'x'.repeat(20 * 1024) } };
    const NUL = '%00';

    it('POST /api/webhook/projects', async () => {
      const op = 'POST /api/webhook/projects';
      conforms(op, await call(op, {}, { body: { projects: [project()] } }), 200);
      conforms(op, await call(op, {}, { body: { projects: [] } }), 400);
      conforms(op, await call(op, {}, { raw: '{"projects": [' }), 400);
      conforms(op, await call(op, {}, { body: { projects: [project()] }, key: false }), 401);
      conforms(op, await call(op, {}, { ...tooLarge, key: false }), 413);
      conforms(op, await call(op, {}, { body: { projects: [project()] }, ...hugeHeaders }), 431);
    });

    it('GET and DELETE /api/projects/{slug}', async () => {
      const kept = project();
      const gone = project();
      await s.call('POST', '/api/webhook/projects', { body: { projects: [kept, gone] } });
      const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
      const get = 'GET /api/projects/{slug}';
      conforms(get, await call(get, { slug: slug(kept) }, { key: false }), 200);
      conforms(get, await call(get, { slug: 'no-such-project' }, { key: false }), 404);
      conforms(get, await call(get, { slug: NUL }, { key: false }), 400);
      conforms(get, await call(get, { slug: slug(kept) }, { key: false, ...hugeHeaders }), 431);

      const del = 'DELETE /api/projects/{slug}';
      conforms(del, await call(del, { slug: slug(gone) }, { key: false }), 401);
      conforms(del, await call(del, { slug: slug(gone) }, { ...tooLarge, key: false }), 413);
      conforms(del, await call(del, { slug: slug(gone) }, { raw: '[]' }), 400);
      conforms(del, await call(del, { slug: slug(gone) }, { body: { apiKey: s.key }, key: false }), 200);
      conforms(del, await call(del, { slug: slug(gone) }), 404);
      conforms(del, await call(del, { slug: slug(gone) }, hugeHeaders), 431);
    });

    it('GET /api/projects and GET /api/tags', async () => {
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project(), project()] } });
      const list = 'GET /api/projects';
      conforms(list, await call(list, {}, { key: false }), 200);
      const page = await s.call('GET', '/api/projects?limit=1&facets=tags,status,linkTypes', { key: false });
      conforms(list, page, 200);
      conforms(
        list,
        await s.call('GET', `/api/projects?limit=1&cursor=${page.json.nextCursor}`, { key: false }),
        200,
      );
      conforms(
        list,
        await s.call('GET', `/api/projects?q=${encodeURIComponent('测试 project')}&include=content`),
        200,
      );
      conforms(list, await s.call('GET', '/api/projects?limit=101', { key: false }), 400);
      conforms(list, await call(list, {}, { key: false, ...hugeHeaders }), 431);
      const tags = 'GET /api/tags';
      conforms(tags, await call(tags, {}, { key: false }), 200);
      conforms(tags, await s.call('GET', '/api/tags?sort=name&limit=1', { key: false }), 200);
      conforms(tags, await s.call('GET', '/api/tags?sort=size', { key: false }), 400);
      conforms(tags, await call(tags, {}, { key: false, ...hugeHeaders }), 431);
    });

    it('POST and GET /api/discovery/tasks', async () => {
      const create = 'POST /api/discovery/tasks';
      conforms(create, await call(create, {}, { body: { tasks: [{ sourceUrl: uniqueUrl('task') }] } }), 200);
      conforms(create, await call(create, {}, { body: { tasks: [{ sourceUrl: 'not a url' }] } }), 400);
      conforms(create, await call(create, {}, { body: { tasks: [] }, key: false }), 401);
      conforms(create, await call(create, {}, { ...tooLarge, key: false }), 413);
      conforms(create, await call(create, {}, { body: { tasks: [] }, ...hugeHeaders }), 431);

      const list = 'GET /api/discovery/tasks';
      conforms(list, await call(list, {}), 200);
      conforms(list, await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=1&offset=0'), 200);
      conforms(list, await s.call('GET', '/api/discovery/tasks?limit=0'), 400);
      conforms(list, await s.call('GET', '/api/discovery/tasks?status=DONE'), 400);
      conforms(list, await call(list, {}, { key: false }), 401);
      conforms(list, await call(list, {}, hugeHeaders), 431);
    });

    it('GET, PATCH and complete /api/discovery/tasks/{id}', async () => {
      const urls = [uniqueUrl('task'), uniqueUrl('task'), uniqueUrl('task')];
      await s.call('POST', '/api/discovery/tasks', {
        body: { tasks: urls.map((sourceUrl) => ({ sourceUrl })) },
      });
      const listed = await s.call('GET', '/api/discovery/tasks?limit=100');
      const [a, b, c] = urls.map(
        (url) => listed.json.tasks.find((t: any) => t.sourceUrl === url).id as string,
      );
      const id = (x: string | undefined) => ({ id: x! });

      const get = 'GET /api/discovery/tasks/{id}';
      conforms(get, await call(get, id(a), { key: false }), 200);
      conforms(get, await call(get, id('no-such-task'), { key: false }), 404);
      conforms(get, await call(get, id(NUL), { key: false }), 400);
      conforms(get, await call(get, id(a), { key: false, ...hugeHeaders }), 431);

      const patch = 'PATCH /api/discovery/tasks/{id}';
      conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' }, key: false }), 401);
      conforms(patch, await call(patch, id(a), { ...tooLarge, key: false }), 413);
      conforms(patch, await call(patch, id(a), { body: { status: 'DONE' } }), 400);
      conforms(patch, await call(patch, id('no-such-task'), { body: { status: 'IN_PROGRESS' } }), 404);
      conforms(
        patch,
        await call(patch, id(a), { body: { status: 'IN_PROGRESS', explorationSummary: 'looking' } }),
        200,
      );
      conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' } }), 409);
      conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' }, ...hugeHeaders }), 431);
      conforms(get, await call(get, id(a), { key: false }), 200);

      const complete = 'POST /api/discovery/tasks/{id}/complete';
      const data = { explorationData: project() };
      conforms(complete, await call(complete, id(a), { body: data, key: false }), 401);
      conforms(complete, await call(complete, id(a), { ...tooLarge, key: false }), 413);
      conforms(complete, await call(complete, id(a), { raw: '{"explorationData": ' }), 400);
      conforms(complete, await call(complete, id(b), { body: { explorationData: { name: '' } } }), 400);
      conforms(complete, await call(complete, id('no-such-task'), { body: data }), 404);
      conforms(complete, await call(complete, id(a), { body: data }), 200);
      conforms(complete, await call(complete, id(a), { body: data }), 409);
      conforms(complete, await call(complete, id(c), { body: data, ...hugeHeaders }), 431);
      // a completed task, and a failed one, read back
      conforms(get, await call(get, id(a), { key: false }), 200);
      conforms(get, await call(get, id(b), { key: false }), 200);
    });

    it('renames, merges and unmerges tags', async () => {
      const run = Math.random().toString(36).slice(2, 8);
      const [a, b] = [
        { name: `甲${run}`, nameEn: `Alpha ${run}` },
        { name: `乙${run}`, nameEn: `Beta ${run}` },
      ];
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project({ tags: [a, b] })] } });
      const [sa, sb] = [`alpha-${run}`, `beta-${run}`];
      const rename = 'PATCH /api/tags/{slug}';
      conforms(rename, await call(rename, { slug: sa }, { body: { name: 'x' }, key: false }), 401);
      conforms(rename, await call(rename, { slug: sa }, { ...tooLarge, key: false }), 413);
      conforms(rename, await call(rename, { slug: sa }, { body: {} }), 400);
      conforms(rename, await call(rename, { slug: 'no-such-tag' }, { body: { name: 'x' } }), 404);
      conforms(rename, await call(rename, { slug: sa }, { body: { name: b.name } }), 409);
      conforms(rename, await call(rename, { slug: sa }, { body: { nameEn: `Alpha! ${run}` } }), 200);
      conforms(rename, await call(rename, { slug: sa }, { body: { name: 'x' }, ...hugeHeaders }), 431);
      const merge = 'POST /api/tags/{slug}/merge';
      conforms(merge, await call(merge, { slug: sa }, { body: { into: sb }, key: false }), 401);
      conforms(merge, await call(merge, { slug: sa }, { ...tooLarge, key: false }), 413);
      conforms(merge, await call(merge, { slug: sa }, { body: {} }), 400);
      conforms(merge, await call(merge, { slug: 'no-such-tag' }, { body: { into: sb } }), 404);
      conforms(merge, await call(merge, { slug: sa }, { body: { into: sa } }), 409);
      conforms(merge, await call(merge, { slug: sa }, { body: { into: sb } }), 200);
      conforms(merge, await call(merge, { slug: sa }, { body: { into: sb }, ...hugeHeaders }), 431);
      const unmerge = 'POST /api/tags/{slug}/unmerge';
      conforms(unmerge, await call(unmerge, { slug: sa }, { body: {}, key: false }), 401);
      conforms(unmerge, await call(unmerge, { slug: sa }, { ...tooLarge, key: false }), 413);
      conforms(unmerge, await call(unmerge, { slug: 'x'.repeat(201) }, { body: {} }), 400);
      conforms(unmerge, await call(unmerge, { slug: 'no-such-tag' }, { body: {} }), 404);
      conforms(unmerge, await call(unmerge, { slug: sb }, { body: {} }), 409);
      conforms(unmerge, await call(unmerge, { slug: sa }, { body: {} }), 200);
      conforms(unmerge, await call(unmerge, { slug: sa }, { body: {}, ...hugeHeaders }), 431);
    });

    it('merges, aliases, by-url and duplicates', async () => {
      const [from, into, other] = [project(), project(), project()];
      await s.call('POST', '/api/webhook/projects', { body: { projects: [from, into, other] } });
      const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
      const merge = 'POST /api/projects/{slug}/merge';
      conforms(
        merge,
        await call(merge, { slug: slug(from) }, { body: { into: slug(into) }, key: false }),
        401,
      );
      conforms(merge, await call(merge, { slug: slug(from) }, { ...tooLarge, key: false }), 413);
      conforms(merge, await call(merge, { slug: slug(from) }, { body: {} }), 400);
      conforms(merge, await call(merge, { slug: 'no-such-project' }, { body: { into: slug(into) } }), 404);
      conforms(merge, await call(merge, { slug: slug(from) }, { body: { into: slug(from) } }), 409);
      conforms(merge, await call(merge, { slug: slug(from) }, { body: { into: slug(into) } }), 200);
      conforms(
        merge,
        await call(merge, { slug: slug(from) }, { body: { into: slug(into) }, ...hugeHeaders }),
        431,
      );
      conforms(
        'GET /api/projects/{slug}',
        await call('GET /api/projects/{slug}', { slug: slug(from) }, { key: false }),
        301,
      );
      conforms(
        'DELETE /api/projects/{slug}',
        await call('DELETE /api/projects/{slug}', { slug: slug(from) }),
        409,
      );

      const byUrl = 'GET /api/projects/by-url';
      const found = `/api/projects/by-url?url=${encodeURIComponent(other.links[0]!.url)}`;
      conforms(byUrl, await s.call('GET', found, { key: false }), 200);
      conforms(
        byUrl,
        await s.call('GET', '/api/projects/by-url?url=https%3A%2F%2Fno.example.org%2F', { key: false }),
        404,
      );
      conforms(byUrl, await s.call('GET', '/api/projects/by-url', { key: false }), 400);
      conforms(byUrl, await s.call('GET', found, { key: false, ...hugeHeaders }), 431);

      const duplicates = 'GET /api/projects/duplicates';
      conforms(duplicates, await s.call('GET', '/api/projects/duplicates?limit=5'), 200);
      conforms(duplicates, await s.call('GET', '/api/projects/duplicates?cursor=nonsense'), 400);
      conforms(duplicates, await s.call('GET', '/api/projects/duplicates', { key: false }), 401);
      conforms(duplicates, await s.call('GET', '/api/projects/duplicates', hugeHeaders), 431);
    });

    it('history: revisions, diff, revert, deleted, restore, locks', async () => {
      const [p, gone, merged] = [project(), project(), project()];
      await s.call('POST', '/api/webhook/projects', { body: { projects: [p, gone, merged] } });
      await s.call('POST', '/api/webhook/projects', {
        body: { projects: [{ ...p, description: 'Changed once more, for history.' }] },
      });
      const slug = (x: { nameEn: string }) => x.nameEn.toLowerCase().replace(/\s+/g, '-');
      await s.call('POST', `/api/projects/${slug(merged)}/merge`, { body: { into: slug(p) } });
      const alias = { slug: slug(merged) };
      const at = { slug: slug(p) };
      const none = { slug: 'no-such-project' };

      const revisions = 'GET /api/projects/{slug}/revisions';
      conforms(revisions, await call(revisions, at, { key: false }), 200);
      conforms(revisions, await call(revisions, alias, { key: false }), 301);
      conforms(revisions, await s.call('GET', `/api/projects/${at.slug}/revisions?limit=0`), 400);
      conforms(revisions, await call(revisions, none, { key: false }), 404);
      conforms(revisions, await call(revisions, at, hugeHeaders), 431);
      const revision = 'GET /api/projects/{slug}/revisions/{revision}';
      const diff = 'GET /api/projects/{slug}/revisions/{revision}/diff';
      for (const op of [revision, diff] as const) {
        conforms(op, await call(op, { ...at, revision: '2' }, { key: false }), 200);
        conforms(op, await call(op, { ...alias, revision: '1' }, { key: false }), 301);
        conforms(op, await call(op, { ...at, revision: 'x' }, { key: false }), 400);
        conforms(op, await call(op, { ...at, revision: '99' }, { key: false }), 404);
        conforms(op, await call(op, { ...at, revision: '1' }, hugeHeaders), 431);
      }

      const revert = 'POST /api/projects/{slug}/revert';
      conforms(revert, await call(revert, at, { body: { revision: 1 }, key: false }), 401);
      conforms(revert, await call(revert, at, { ...tooLarge, key: false }), 413);
      conforms(revert, await call(revert, at, { body: { revision: 0 } }), 400);
      conforms(revert, await call(revert, none, { body: { revision: 1 } }), 404);
      conforms(revert, await call(revert, alias, { body: { revision: 1 } }), 409);
      conforms(revert, await call(revert, at, { body: { revision: 1 } }), 200);
      conforms(revert, await call(revert, at, { body: { revision: 1 }, ...hugeHeaders }), 431);

      const lock = 'PUT /api/projects/{slug}/lock';
      const unlock = 'DELETE /api/projects/{slug}/lock';
      conforms(lock, await call(lock, at, { body: { fields: '*' }, key: false }), 401);
      conforms(lock, await call(lock, at, { ...tooLarge, key: false }), 413);
      conforms(lock, await call(lock, at, { body: { fields: ['slug'] } }), 400);
      conforms(lock, await call(lock, none, { body: { fields: '*' } }), 404);
      conforms(lock, await call(lock, alias, { body: { fields: '*' } }), 409);
      conforms(lock, await call(lock, at, { body: { fields: ['name', 'tags'], reason: '审校过' } }), 200);
      conforms(lock, await call(lock, at, { body: { fields: '*' }, ...hugeHeaders }), 431);
      conforms(unlock, await call(unlock, at, { key: false }), 401);
      conforms(unlock, await call(unlock, at, { ...tooLarge, key: false }), 413);
      conforms(unlock, await call(unlock, at, { raw: '[]' }), 400);
      conforms(unlock, await call(unlock, none), 404);
      conforms(unlock, await call(unlock, alias), 409);
      conforms(unlock, await call(unlock, at), 200);
      conforms(unlock, await call(unlock, at, hugeHeaders), 431);

      const deleted = await s.call('DELETE', `/api/projects/${slug(gone)}`);
      const list = 'GET /api/projects/deleted';
      conforms(list, await s.call('GET', '/api/projects/deleted?limit=1'), 200);
      conforms(list, await s.call('GET', '/api/projects/deleted?cursor=nonsense'), 400);
      conforms(list, await s.call('GET', '/api/projects/deleted', { key: false }), 401);
      conforms(list, await s.call('GET', '/api/projects/deleted', hugeHeaders), 431);
      const restore = 'POST /api/projects/deleted/{id}/restore';
      const id = { id: deleted.json.data.project.id as string };
      conforms(restore, await call(restore, id, { key: false }), 401);
      conforms(restore, await call(restore, id, { ...tooLarge, key: false }), 413);
      conforms(restore, await call(restore, id, { raw: '[]' }), 400);
      conforms(restore, await call(restore, { id: 'no-such-project' }), 404);
      conforms(restore, await call(restore, id), 200);
      conforms(restore, await call(restore, id), 409);
      conforms(restore, await call(restore, id, hugeHeaders), 431);
    });

    it('the duplicate checks', async () => {
      const tasks = 'POST /api/discovery/check-duplicates';
      const url = uniqueUrl('dup');
      await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
      conforms(tasks, await call(tasks, {}, { body: { urls: [url, uniqueUrl('new')] } }), 200);
      conforms(tasks, await call(tasks, {}, { body: { urls: [] } }), 400);
      conforms(tasks, await call(tasks, {}, { body: { urls: [url] }, key: false }), 401);
      conforms(tasks, await call(tasks, {}, { ...tooLarge, key: false }), 413);
      conforms(tasks, await call(tasks, {}, { body: { urls: [url] }, ...hugeHeaders }), 431);

      const projects = 'POST /api/webhook/check-duplicates';
      const p = project();
      await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
      const body = { projects: [{ codehostUrl: p.links[0]!.url }, { slug: 'no-such-project' }] };
      conforms(projects, await call(projects, {}, { body }), 200);
      conforms(projects, await call(projects, {}, { body: { projects: [{}] } }), 400);
      conforms(projects, await call(projects, {}, { body, key: false }), 401);
      conforms(projects, await call(projects, {}, { ...tooLarge, key: false }), 413);
      conforms(projects, await call(projects, {}, { body, ...hugeHeaders }), 431);
    });

    it('the queue: claim, heartbeat, release, stats', async () => {
      const urls = [uniqueUrl('queue'), uniqueUrl('queue')];
      await s.call('POST', '/api/discovery/tasks', {
        body: { tasks: urls.map((sourceUrl) => ({ sourceUrl })) },
      });
      const claim = 'POST /api/discovery/tasks/claim';
      const claimed = await call(claim, {}, { body: { limit: 50, leaseSeconds: 60, worker: 'w-1' } });
      conforms(claim, claimed, 200);
      conforms(claim, await call(claim, {}, { body: { limit: 51 } }), 400);
      conforms(claim, await call(claim, {}, { body: {}, key: false }), 401);
      conforms(claim, await call(claim, {}, { ...tooLarge, key: false }), 413);
      conforms(claim, await call(claim, {}, { body: {}, ...hugeHeaders }), 431);
      const [a, b] = claimed.json.tasks as { id: string; leaseToken: string }[];
      const heartbeat = 'POST /api/discovery/tasks/{id}/heartbeat';
      const body = (t: { leaseToken: string } | undefined) => ({ body: { leaseToken: t!.leaseToken } });
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, body(a)), 200);
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, { body: { leaseToken: 'nope' } }), 409);
      conforms(heartbeat, await call(heartbeat, { id: 'no-such-task' }, body(a)), 404);
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, { body: {} }), 400);
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...body(a), key: false }), 401);
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...tooLarge, key: false }), 413);
      conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...body(a), ...hugeHeaders }), 431);
      const release = 'POST /api/discovery/tasks/{id}/release';
      conforms(
        release,
        await call(release, { id: b!.id }, { body: { leaseToken: b!.leaseToken, retryAfterSeconds: -1 } }),
        400,
      );
      conforms(release, await call(release, { id: b!.id }, { ...body(b), key: false }), 401);
      conforms(release, await call(release, { id: b!.id }, { ...tooLarge, key: false }), 413);
      conforms(release, await call(release, { id: 'no-such-task' }, body(b)), 404);
      conforms(
        release,
        await call(release, { id: b!.id }, { body: { leaseToken: b!.leaseToken, errorMessage: '超时' } }),
        200,
      );
      conforms(release, await call(release, { id: b!.id }, body(b)), 409);
      conforms(release, await call(release, { id: b!.id }, { ...body(b), ...hugeHeaders }), 431);
      const stats = 'GET /api/discovery/stats';
      conforms(stats, await call(stats, {}), 200);
      conforms(stats, await call(stats, {}, { key: false }), 401);
      conforms(stats, await s.call('GET', '/api/discovery/stats?status=PENDING'), 400);
      conforms(stats, await call(stats, {}, hugeHeaders), 431);
      const list = 'GET /api/discovery/tasks';
      conforms(list, await s.call('GET', '/api/discovery/tasks?cursor=%21%21'), 400);
    });

    it('the search synonyms', async () => {
      const get = 'GET /api/search/synonyms';
      conforms(get, await call(get, {}, { key: false }), 200);
      conforms(get, await s.call('GET', '/api/search/synonyms?set=1', { key: false }), 400);
      conforms(get, await call(get, {}, { key: false, ...hugeHeaders }), 431);
      const put = 'PUT /api/search/synonyms';
      conforms(put, await call(put, {}, { body: { sets: [['大模型', 'LLM']] } }), 200);
      conforms(
        put,
        await call(
          put,
          {},
          {
            body: {
              sets: [
                ['a', 'b'],
                ['B', 'c'],
              ],
            },
          },
        ),
        400,
      );
      conforms(put, await call(put, {}, { body: { sets: [] }, key: false }), 401);
      conforms(put, await call(put, {}, { ...tooLarge, key: false }), 413);
      conforms(put, await call(put, {}, { body: { sets: [] }, ...hugeHeaders }), 431);
      conforms(put, await call(put, {}, { body: { sets: [] } }), 200);
    });

    it('the curated results (pins)', async () => {
      const get = 'GET /api/search/pins';
      conforms(get, await call(get, {}, { key: false }), 200);
      conforms(get, await s.call('GET', '/api/search/pins?pin=1', { key: false }), 400);
      conforms(get, await call(get, {}, { key: false, ...hugeHeaders }), 431);
      const put = 'PUT /api/search/pins';
      conforms(put, await call(put, {}, { body: { pins: [{ query: 'Qwen', first: ['qwen'] }] } }), 200);
      const twice = [
        { query: 'qwen', first: [] },
        { query: 'QWEN', first: [] },
      ];
      conforms(put, await call(put, {}, { body: { pins: twice } }), 400);
      conforms(put, await call(put, {}, { body: { pins: [] }, key: false }), 401);
      conforms(put, await call(put, {}, { ...tooLarge, key: false }), 413);
      conforms(put, await call(put, {}, { body: { pins: [] }, ...hugeHeaders }), 431);
      conforms(put, await call(put, {}, { body: { pins: [] } }), 200);
    });

    it('GET /api/changes and the webhooks', async () => {
      const changes = 'GET /api/changes';
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
      const first = await call(changes, {});
      conforms(changes, first, 200);
      conforms(changes, await s.call('GET', '/api/changes?limit=0'), 400);
      conforms(changes, await call(changes, {}, { key: false }), 401);
      conforms(changes, await call(changes, {}, hugeHeaders), 431);
      await s.db.pool.query(`update changes set at = now() - interval '400 days'`);
      await pruneChanges(s.db.db, 365);
      conforms(changes, await s.call('GET', `/api/changes?after=${first.json.changes[0].cursor}`), 410);

      const create = 'POST /api/webhooks';
      const body = { url: 'https://hooks.example.org/directory', events: ['*'] };
      const created = await call(create, {}, { body });
      conforms(create, created, 200);
      conforms(create, await call(create, {}, { body: { ...body, url: 'http://127.0.0.1:9/' } }), 400);
      conforms(create, await call(create, {}, { body, key: false }), 401);
      conforms(create, await call(create, {}, { ...tooLarge, key: false }), 413);
      conforms(create, await call(create, {}, { body, ...hugeHeaders }), 431);
      const id = { id: created.json.webhook.id as string };
      const list = 'GET /api/webhooks';
      conforms(list, await call(list, {}), 200);
      conforms(list, await s.call('GET', '/api/webhooks?enabled=maybe'), 400);
      conforms(list, await call(list, {}, { key: false }), 401);
      conforms(list, await call(list, {}, hugeHeaders), 431);
      const get = 'GET /api/webhooks/{id}';
      const deliveries = 'GET /api/webhooks/{id}/deliveries';
      for (const op of [get, deliveries] as const) {
        conforms(op, await call(op, id), 200);
        conforms(op, await call(op, { id: 'no-such-webhook' }), 404);
        conforms(op, await call(op, { id: NUL }), 400);
        conforms(op, await call(op, id, { key: false }), 401);
        conforms(op, await call(op, id, hugeHeaders), 431);
      }
      const del = 'DELETE /api/webhooks/{id}';
      conforms(del, await call(del, id, { key: false }), 401);
      conforms(del, await call(del, id, { ...tooLarge, key: false }), 413);
      conforms(del, await call(del, id, { raw: '[]' }), 400);
      conforms(del, await call(del, id, hugeHeaders), 431);
      conforms(del, await call(del, id), 200);
      conforms(del, await call(del, id), 404);
    });

    it('the named keys', async () => {
      const create = 'POST /api/keys';
      const body = { name: 'openapi-test', scopes: ['tasks:read'] };
      const created = await call(create, {}, { body });
      conforms(create, created, 201);
      conforms(create, await call(create, {}, { body: { ...body, scopes: ['nope'] } }), 400);
      conforms(create, await call(create, {}, { body, key: false }), 401);
      conforms(create, await call(create, {}, { body, key: created.json.data.key }), 403);
      conforms(create, await call(create, {}, { ...tooLarge, key: false }), 413);
      conforms(create, await call(create, {}, { body, ...hugeHeaders }), 431);
      const list = 'GET /api/keys';
      conforms(list, await call(list, {}), 200);
      conforms(list, await s.call('GET', '/api/keys?limit=0'), 400);
      conforms(list, await call(list, {}, { key: false }), 401);
      conforms(list, await call(list, {}, hugeHeaders), 431);
      const self = 'GET /api/keys/self';
      conforms(self, await call(self, {}), 200);
      conforms(self, await call(self, {}, { key: created.json.data.key }), 200);
      conforms(self, await s.call('GET', '/api/keys/self?other=1'), 400);
      conforms(self, await call(self, {}, { key: false }), 401);
      conforms(self, await call(self, {}, hugeHeaders), 431);
      const rotate = 'POST /api/keys/{id}/rotate';
      const id = { id: created.json.data.id as string };
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: -1 } }), 400);
      conforms(rotate, await call(rotate, { id: 'no-such-key' }, { body: {} }), 404);
      conforms(rotate, await call(rotate, id, { body: {}, key: false }), 401);
      conforms(rotate, await call(rotate, id, { ...tooLarge, key: false }), 413);
      conforms(rotate, await call(rotate, id, { body: {}, ...hugeHeaders }), 431);
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 } }), 200);
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 } }), 409);
      const del = 'DELETE /api/keys/{id}';
      conforms(del, await call(del, id, { key: false }), 401);
      conforms(del, await call(del, id, { ...tooLarge, key: false }), 413);
      conforms(del, await call(del, id, { raw: '[]' }), 400);
      conforms(del, await call(del, id, hugeHeaders), 431);
      conforms(del, await call(del, id), 200);
      conforms(del, await call(del, { id: 'no-such-key' }), 404);
    });

    it('restore from an export', async () => {
      const status = 'GET /api/restore';
      conforms(status, await call(status, {}), 200);
      conforms(status, await s.call('GET', '/api/restore?other=1'), 400);
      conforms(status, await call(status, {}, { key: false }), 401);
      conforms(status, await call(status, {}, hugeHeaders), 431);
      const batch = 'POST /api/restore';
      const header = { type: 'export', version: 1, asOf: new Date().toISOString(), cursor: 'c', count: 0 };
      const body = { header, firstLine: 2, projects: [], done: true };
      // this directory holds projects: 409
      conforms(batch, await call(batch, {}, { body }), 409);
      conforms(batch, await call(batch, {}, { body: { ...body, firstLine: 1 } }), 400);
      conforms(batch, await call(batch, {}, { body, key: false }), 401);
      conforms(batch, await call(batch, {}, { ...tooLarge, key: false }), 413);
      conforms(batch, await call(batch, {}, { body, ...hugeHeaders }), 431);
      // an empty directory takes it
      const empty = await startServer(target);
      try {
        conforms(batch, await empty.call('POST', '/api/restore', { body }), 200);
      } finally {
        await empty.close();
      }
    });

    it('every keyed operation: 403 for a valid key without its scope', async () => {
      const none = await s.call('POST', '/api/keys', { body: { name: 'no scopes', scopes: [] } });
      expect(none.status).toBe(201);
      for (const { op, keyed } of ENDPOINTS) {
        if (!keyed || op === 'GET /api/keys/self') continue;
        const [method] = op.split(' ') as [string];
        const reply = await call(
          op,
          { slug: 'x', id: 'x', revision: '1', deliveryId: '1' },
          {
            key: none.json.data.key,
            ...(method === 'GET' ? {} : { body: {} }),
          },
        );
        conforms(op, reply, 403);
        expect(reply.json.details[0], op).toMatch(/^scope: this key lacks "[a-z:]+"$/);
      }
    });

    it('the curation operations: edit, dismissals, redeliver, ping', async () => {
      const [a, b] = [project(), project()];
      await s.call('POST', '/api/webhook/projects', { body: { projects: [a, b] } });
      const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
      const at = { slug: slug(a) };
      const none = { slug: 'no-such-project' };
      const merged = project();
      await s.call('POST', '/api/webhook/projects', { body: { projects: [merged] } });
      await s.call('POST', `/api/projects/${slug(merged)}/merge`, { body: { into: slug(b) } });
      const alias = { slug: slug(merged) };

      const edit = 'PATCH /api/projects/{slug}';
      const etag = (await s.call('GET', `/api/projects/${at.slug}`)).headers.get('etag')!;
      conforms(edit, await call(edit, at, { body: { status: 'ARCHIVED' }, key: false }), 401);
      conforms(edit, await call(edit, at, { ...tooLarge, key: false }), 413);
      conforms(edit, await call(edit, at, { body: { description: 'short' } }), 400);
      conforms(edit, await call(edit, none, { body: {} }), 404);
      conforms(edit, await call(edit, alias, { body: {} }), 409);
      conforms(edit, await call(edit, at, { body: { links: b.links } }), 409);
      conforms(
        edit,
        await call(edit, at, { body: { status: 'ARCHIVED' }, headers: { 'if-match': etag } }),
        200,
      );
      conforms(
        edit,
        await call(edit, at, { body: { status: 'ACTIVE' }, headers: { 'if-match': etag } }),
        412,
      );
      conforms(edit, await call(edit, at, { body: {}, ...hugeHeaders }), 431);

      for (const op of [
        'POST /api/projects/duplicates/dismiss',
        'DELETE /api/projects/duplicates/dismiss',
      ] as const) {
        const slugs = [slug(a), slug(b)];
        conforms(op, await call(op, {}, { body: { slugs }, key: false }), 401);
        conforms(op, await call(op, {}, { ...tooLarge, key: false }), 413);
        conforms(op, await call(op, {}, { body: { slugs: [slug(a)] } }), 400);
        conforms(op, await call(op, {}, { body: { slugs: [slug(a), 'no-such-project'] } }), 404);
        conforms(op, await call(op, {}, { body: { slugs: [slug(a), alias.slug] } }), 409);
        conforms(op, await call(op, {}, { body: { slugs } }), 200);
        conforms(op, await call(op, {}, { body: { slugs }, ...hugeHeaders }), 431);
      }
      conforms(
        'GET /api/projects/duplicates',
        await s.call('GET', '/api/projects/duplicates?dismissed=true&limit=1'),
        200,
      );

      const created = await s.call('POST', '/api/webhooks', {
        body: { url: 'https://hooks.example.org/directory', events: ['*'] },
      });
      const id = { id: created.json.webhook.id as string };
      const update = 'PATCH /api/webhooks/{id}';
      conforms(update, await call(update, id, { body: { enabled: false }, key: false }), 401);
      conforms(update, await call(update, id, { ...tooLarge, key: false }), 413);
      conforms(update, await call(update, id, { body: { enabled: 'no' } }), 400);
      conforms(update, await call(update, { id: 'no-such-webhook' }, { body: { enabled: false } }), 404);
      conforms(update, await call(update, id, { body: { enabled: false } }), 200);
      conforms(update, await call(update, id, { body: { enabled: true } }), 200);
      conforms(update, await call(update, id, { body: { enabled: false }, ...hugeHeaders }), 431);
      conforms(update, await call(update, id, { body: { url: 'http://127.0.0.1/hook' } }), 400);
      conforms(update, await call(update, id, { body: { events: ['project.created'] } }), 200);

      const rotate = 'POST /api/webhooks/{id}/rotate-secret';
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 }, key: false }), 401);
      conforms(rotate, await call(rotate, id, { ...tooLarge, key: false }), 413);
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 604_801 } }), 400);
      conforms(rotate, await call(rotate, { id: 'no-such-webhook' }, { body: { graceSeconds: 0 } }), 404);
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 60 } }), 200);
      conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 }, ...hugeHeaders }), 431);

      const ping = 'POST /api/webhooks/{id}/ping';
      conforms(ping, await call(ping, id, { key: false }), 401);
      conforms(ping, await call(ping, id, { ...tooLarge, key: false }), 413);
      conforms(ping, await call(ping, id, { raw: '[]' }), 400);
      conforms(ping, await call(ping, { id: 'no-such-webhook' }), 404);
      // the target does not resolve here: answered with the failure, not an error
      const pinged = await call(ping, id);
      conforms(ping, pinged, 200);
      conforms(ping, await call(ping, id, hugeHeaders), 431);

      // a delivery's detail; a ping is one, and is not redelivered
      const detail = 'GET /api/webhooks/{id}/deliveries/{deliveryId}';
      const pingAt = { ...id, deliveryId: pinged.json.ping.id as string };
      conforms(detail, await call(detail, pingAt, { key: false }), 401);
      conforms(detail, await call(detail, pingAt), 200);
      conforms(detail, await call(detail, { ...id, deliveryId: 'abc' }), 404);
      conforms(detail, await call(detail, { id: 'x'.repeat(101), deliveryId: '1' }), 400);
      conforms(detail, await call(detail, { id: 'no-such-webhook', deliveryId: pingAt.deliveryId }), 404);
      conforms(detail, await call(detail, pingAt, hugeHeaders), 431);

      // a change queued for the webhook, and an attempt at it
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
      const attempts = await sql<{ id: string; change_id: string }>`
        insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms)
        select webhook_id, id, change_id, 'project.created', 500, 'HTTP 500', false, 1
        from webhook_deliveries where webhook_id = ${id.id}
        returning id::text, change_id::text
      `.execute(s.db.db);
      const attempt = attempts.rows[0]!;
      const redeliver = 'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver';
      const at2 = { ...id, deliveryId: attempt.id };
      conforms(redeliver, await call(redeliver, at2, { key: false }), 401);
      conforms(redeliver, await call(redeliver, at2, { ...tooLarge, key: false }), 413);
      conforms(redeliver, await call(redeliver, { ...id, deliveryId: '3000000000000000000000' }), 400);
      conforms(redeliver, await call(redeliver, { ...id, deliveryId: '999999999' }), 404);
      conforms(redeliver, await call(redeliver, at2), 200);
      conforms(redeliver, await call(redeliver, pingAt), 409);
      conforms(detail, await call(detail, at2), 200);
      conforms(redeliver, await call(redeliver, at2, hugeHeaders), 431);
      await sql`delete from changes where id = ${attempt.change_id}::bigint`.execute(s.db.db);
      conforms(redeliver, await call(redeliver, at2), 410);
    });

    it('every operation: a request that stalls past the request timeout', async () => {
      const { port } = new URL(s.baseUrl);
      // A body that never arrives in full; a GET whose headers never end.
      const stall = (op: Op) => {
        const [method, template] = op.split(' ') as [string, string];
        const path = template.replace(/\{\w+\}/g, 'x');
        const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\n`;
        return method === 'GET'
          ? head
          : `${head}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
      };
      const replies = await Promise.all(
        ENDPOINTS.map(
          ({ op }) =>
            new Promise<Reply>((resolve, reject) => {
              const socket = netConnect(Number(port), '127.0.0.1', () => socket.write(stall(op)));
              let data = '';
              socket.on('data', (chunk) => {
                data += chunk;
              });
              socket.on('error', reject);
              socket.on('close', () => {
                const text = data.slice(data.indexOf('\r\n\r\n') + 4);
                resolve({
                  status: Number(data.split(' ')[1]),
                  json: JSON.parse(text),
                  text,
                  headers: new Headers(),
                });
              });
            }),
        ),
      );
      for (const [i, { op }] of ENDPOINTS.entries()) conforms(op, replies[i]!, 408);
    });

    it('related projects', async () => {
      const [a, b, merged] = [project(), project(), project()];
      await s.call('POST', '/api/webhook/projects', { body: { projects: [a, b, merged] } });
      const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
      await s.call('POST', `/api/projects/${slug(merged)}/merge`, { body: { into: slug(b) } });
      const op = 'GET /api/projects/{slug}/related';
      conforms(op, await call(op, { slug: slug(a) }, { key: false }), 200);
      conforms(op, await s.call('GET', `/api/projects/${slug(a)}/related?limit=21`, { key: false }), 400);
      conforms(op, await call(op, { slug: 'no-such-project' }, { key: false }), 404);
      conforms(op, await call(op, { slug: slug(merged) }, { key: false }), 301);
      conforms(op, await call(op, { slug: slug(a) }, { key: false, ...hugeHeaders }), 431);
    });

    it('every documented status and error string but 500 was seen', () => {
      for (const { op } of ENDPOINTS) {
        const { 500: _internal, ...responses } = operation(doc, op).responses;
        const documented = Object.fromEntries(
          Object.entries(responses).map(([status, response]) => [
            status,
            status === '200' || status === '201' ? [] : errorStrings(doc, response).sort(),
          ]),
        );
        const observed = Object.fromEntries(
          [...(seen.get(op) ?? new Map<string, Set<string>>())].map(([status, errors]) => [
            status,
            [...errors].sort(),
          ]),
        );
        expect(observed, op).toEqual(documented);
      }
    });
  });
});
