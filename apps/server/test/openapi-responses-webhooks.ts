import { pruneChanges } from '@directory/db';
import { expect, it } from 'vitest';
import { project, startServer } from './helpers.ts';
import { hugeHeaders, NUL, type ResponseChecks, tooLarge } from './openapi-conformance.ts';
import { ENDPOINTS } from './openapi-contract.ts';

/**
 * Real responses match the OpenAPI document: the change feed and the webhooks
 * (docs/changes-and-webhooks.md), the named keys and the 403 of a key without its scope
 * (docs/keys-and-limits.md), and restore from an export (docs/operating.md#restore-from-an-export).
 * Registered by openapi.test.ts in its "real responses match it" block, on its server.
 */
export function webhookResponses({ s, target, conforms, call }: ResponseChecks): void {
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
}
