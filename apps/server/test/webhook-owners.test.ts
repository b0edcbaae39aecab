import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { claimDeliveries, insertWebhook, sql } from '@directory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, startServer, type TestServer, targets } from './helpers.ts';

/*
 * Webhooks have owners (docs/keys-and-limits.md#webhooks-have-owners): a webhooks:manage key sees and
 * changes its own only (another's is 404 on every route), an admin key all of them, and a webhook's
 * deliveries carry only what its owner may read.
 */

interface Key {
  id: string;
  name: string;
  key: string;
}

describe.each(targets)('webhook owners on $name', (target) => {
  let s: TestServer;
  let close: () => Promise<unknown>;
  let url: string;
  let a: Key;
  let b: Key;
  let admin: Key;
  const hooks: Record<'a' | 'b' | 'boot' | 'old', string> = { a: '', b: '', boot: '', old: '' };

  const as = (k: Key | string, method: string, path: string, body?: unknown) =>
    s.call(method, path, { key: typeof k === 'string' ? k : k.key, ...(body !== undefined && { body }) });

  async function newKey(name: string, scopes: string[]): Promise<Key> {
    const r = await s.call('POST', '/api/keys', { body: { name, scopes } });
    expect(r.status).toBe(201);
    return r.json.data;
  }
  async function create(k: Key | string): Promise<string> {
    const r = await as(k, 'POST', '/api/webhooks', { url, events: ['*'] });
    expect(r.status).toBe(200);
    return r.json.webhook.id;
  }

  beforeAll(async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    }).listen(0, '127.0.0.1');
    await new Promise((r) => receiver.once('listening', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    s = await startServer(target, { allowPrivateWebhookTargets: true });
    close = async () => {
      await s.close();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    };
    a = await newKey('integrator-a', ['webhooks:manage', 'changes:read']);
    b = await newKey('integrator-b', ['webhooks:manage']);
    admin = await newKey('admin-named', ['keys:admin', 'webhooks:manage']);
    hooks.a = await create(a);
    hooks.b = await create(b);
    hooks.boot = await create(s.key);
    // as a webhook made before owners existed
    hooks.old = 'madebeforeowners';
    await insertWebhook(s.db.db, {
      id: hooks.old,
      url,
      events: ['*'],
      description: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
  }, 60_000);
  afterAll(() => close());

  /** Every route on webhook `id`, as key `k`: the statuses. */
  async function everyRoute(k: Key | string, id: string, attemptId: string) {
    const p = `/api/webhooks/${id}`;
    return {
      get: (await as(k, 'GET', p)).status,
      deliveries: (await as(k, 'GET', `${p}/deliveries`)).status,
      delivery: (await as(k, 'GET', `${p}/deliveries/${attemptId}`)).status,
      patch: (await as(k, 'PATCH', p, { events: ['project.created'] })).status,
      ping: (await as(k, 'POST', `${p}/ping`)).status,
      redeliver: (await as(k, 'POST', `${p}/deliveries/${attemptId}/redeliver`)).status,
      rotate: (await as(k, 'POST', `${p}/rotate-secret`, { graceSeconds: 0 })).status,
      delete: (await as(k, 'DELETE', p)).status,
    };
  }
  const NOT_FOUND = {
    get: 404,
    deliveries: 404,
    delivery: 404,
    patch: 404,
    ping: 404,
    redeliver: 404,
    rotate: 404,
    delete: 404,
  };

  it('the list: a key sees its own, an admin key every one with its owner', async () => {
    const ids = async (k: Key | string) =>
      (await as(k, 'GET', '/api/webhooks')).json.webhooks.map((w: { id: string }) => w.id).sort();
    expect(await ids(a)).toEqual([hooks.a]);
    expect(await ids(b)).toEqual([hooks.b]);
    for (const k of [s.key, admin]) expect(await ids(k)).toEqual(Object.values(hooks).sort());
    const all = (await as(admin, 'GET', '/api/webhooks')).json.webhooks as { id: string; owner: unknown }[];
    const owner = (id: string) => all.find((w) => w.id === id)?.owner;
    expect(owner(hooks.a)).toEqual({ id: a.id, name: 'integrator-a' });
    expect(owner(hooks.b)).toEqual({ id: b.id, name: 'integrator-b' });
    expect(owner(hooks.boot)).toBeNull();
    expect(owner(hooks.old)).toBeNull();
    expect((await as(a, 'GET', `/api/webhooks/${hooks.a}`)).json.webhook.owner).toEqual({
      id: a.id,
      name: 'integrator-a',
    });
  });

  it("every route: another key's webhook is 404 and stays as it was; an admin's too", async () => {
    const ping = await as(b, 'POST', `/api/webhooks/${hooks.b}/ping`);
    expect(ping.status).toBe(200);
    const before = (await as(b, 'GET', `/api/webhooks/${hooks.b}`)).json.webhook;
    expect(await everyRoute(a, hooks.b, ping.json.ping.id)).toEqual(NOT_FOUND);
    expect(await everyRoute(b, hooks.a, ping.json.ping.id)).toEqual(NOT_FOUND);
    for (const id of [hooks.boot, hooks.old])
      expect(await everyRoute(a, id, ping.json.ping.id)).toEqual(NOT_FOUND);
    const after = await as(b, 'GET', `/api/webhooks/${hooks.b}`);
    expect(after.json.webhook).toEqual(before);
    expect((await as(b, 'GET', `/api/webhooks/${hooks.b}/deliveries`)).json.deliveries).toHaveLength(1);
    // the owner itself: every route answers (a ping is not redelivered: 409)
    expect(await everyRoute(b, hooks.b, ping.json.ping.id)).toEqual({
      ...NOT_FOUND,
      get: 200,
      deliveries: 200,
      delivery: 200,
      patch: 200,
      ping: 200,
      redeliver: 409,
      rotate: 200,
      delete: 200,
    });
    hooks.b = await create(b);
  });

  it("an admin key reads and changes another key's webhook", async () => {
    const ping = await as(admin, 'POST', `/api/webhooks/${hooks.a}/ping`);
    expect(ping.status).toBe(200);
    expect(await everyRoute(admin, hooks.a, ping.json.ping.id)).toEqual({
      get: 200,
      deliveries: 200,
      delivery: 200,
      patch: 200,
      ping: 200,
      redeliver: 409,
      rotate: 200,
      delete: 200,
    });
    hooks.a = await create(a);
  });

  it("a rotated key's successor owns its webhooks; the list names the successor", async () => {
    const r = await s.call('POST', `/api/keys/${a.id}/rotate`, { body: { graceSeconds: 0 } });
    expect(r.status).toBe(200);
    const next: Key = r.json.data;
    expect((await as(a, 'GET', '/api/webhooks')).status).toBe(401);
    const listed = (await as(next, 'GET', '/api/webhooks')).json.webhooks;
    expect(listed.map((w: { id: string }) => w.id)).toEqual([hooks.a]);
    expect(listed[0].owner).toEqual({ id: next.id, name: 'integrator-a' });
    expect((await as(next, 'PATCH', `/api/webhooks/${hooks.a}`, { enabled: true })).status).toBe(200);
    expect((await as(next, 'GET', `/api/webhooks/${hooks.b}`)).status).toBe(404);
    a = next;
  });

  it('deliveries carry only what the owner may read: none without changes:read, none once its key is revoked', async () => {
    const db = s.db.db;
    await sql`delete from webhook_deliveries`.execute(db);
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } })).status).toBe(
      200,
    );
    const queued = async () =>
      (
        await sql<{
          webhook_id: string;
        }>`select webhook_id from webhook_deliveries where status = 'PENDING' order by webhook_id`.execute(db)
      ).rows.map((r) => r.webhook_id);
    // B lacks changes:read: nothing is queued for its webhook
    expect(await queued()).toEqual([hooks.a, hooks.boot, hooks.old].sort());
    expect((await s.call('DELETE', `/api/keys/${a.id}`)).status).toBe(200);
    const claimed = await claimDeliveries(db, 50, 60_000);
    expect(claimed.map((d) => d.webhookId).sort()).toEqual([hooks.boot, hooks.old].sort());
    const { rows } = await sql<{
      status: string;
    }>`select status from webhook_deliveries where webhook_id = ${hooks.a}`.execute(db);
    expect(rows).toEqual([{ status: 'FAILED' }]);
    // the webhook stays, for an admin to see
    expect((await as(admin, 'GET', `/api/webhooks/${hooks.a}`)).json.webhook.owner).toMatchObject({
      name: 'integrator-a',
    });
  });
});
