import { connect as netConnect } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { project, type Reply, targets, useServer } from './helpers.ts';
import { hugeHeaders, responseChecks } from './openapi-conformance.ts';
import {
  DOC_ID,
  ENDPOINTS,
  errorStrings,
  expectedErrors,
  KEY_SCHEME,
  type Op,
  operation,
} from './openapi-contract.ts';
import { curationResponses } from './openapi-responses-curation.ts';
import { historyResponses } from './openapi-responses-history.ts';
import { projectResponses } from './openapi-responses-projects.ts';
import { queueResponses } from './openapi-responses-queue.ts';
import { webhookResponses } from './openapi-responses-webhooks.ts';

/**
 * The OpenAPI document the server serves (`GET /api/openapi.json`): as a document, it holds exactly
 * the operations of docs/api.md and the other docs pages (openapi-contract.ts), with their keys and
 * error statuses; and real responses match it, every documented status and error string but 500 seen.
 * The cases of real responses are grouped in openapi-responses-*.ts, all on this file's one server.
 */
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
    const checks = responseChecks(s, target, () => ({ doc, ajv }));
    const { conforms, call, seen } = checks;

    projectResponses(checks);
    historyResponses(checks);
    queueResponses(checks);
    webhookResponses(checks);
    curationResponses(checks);

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
