import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { type Received, receiver } from './feed-receivers.ts';
import { databaseFor, project, type ServerProcess, spawnServer, startServer, targets } from './helpers.ts';

/** Whether a receiver verifying with `secret` (the standardwebhooks library) accepts the message. */
function accepts(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers);
    return true;
  } catch {
    return false;
  }
}

describe.each(targets)('managing webhooks on $name', (target) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('PATCH /api/webhooks/{id} changes url and events, checked as at creation (docs/changes-and-webhooks.md#changing-a-webhook)', async () => {
    const s = await startServer(target);
    cleanups.push(() => s.close());
    const created = await s.call('POST', '/api/webhooks', {
      body: { url: 'https://203.0.113.9/hook', events: ['project.created'] },
    });
    expect(created.status).toBe(200);
    const id = created.json.webhook.id as string;
    const path = `/api/webhooks/${id}`;

    for (const url of ['http://127.0.0.1:8080/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook']) {
      const r = await s.call('PATCH', path, { body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.json.details[0], url).toMatch(/^url: Targets on loopback or private addresses/);
    }
    for (const body of [
      { url: 'ftp://203.0.113.9/hook' },
      { url: 'not a url' },
      { events: [] },
      { events: ['project.exploded'] },
      { events: ['project.created', 'project.created'] },
      { events: 'project.created' },
      { enabled: 'yes' },
      {},
    ]) {
      const r = await s.call('PATCH', path, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.details.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    // A refused change changes nothing.
    expect((await s.call('GET', path)).json.webhook).toMatchObject({
      url: 'https://203.0.113.9/hook',
      events: ['project.created'],
    });

    const changed = await s.call('PATCH', path, {
      body: { url: 'https://198.51.100.7/new', events: ['project.updated', 'task.created'] },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.webhook).toMatchObject({
      id,
      url: 'https://198.51.100.7/new',
      events: ['project.updated', 'task.created'],
      enabled: true,
    });
    expect(changed.json).not.toHaveProperty('secret');
    const disabled = await s.call('PATCH', path, { body: { enabled: false, events: ['*'] } });
    expect(disabled.json.webhook).toMatchObject({
      url: 'https://198.51.100.7/new',
      events: ['*'],
      enabled: false,
    });
    expect((await s.call('GET', path)).json.webhook).toEqual(disabled.json.webhook);
    expect((await s.call('PATCH', '/api/webhooks/nope', { body: { events: ['*'] } })).status).toBe(404);

    const allowed = await startServer(target, { allowPrivateWebhookTargets: true });
    cleanups.push(() => allowed.close());
    const w = await allowed.call('POST', '/api/webhooks', {
      body: { url: 'https://203.0.113.9/a', events: ['*'] },
    });
    const local = await allowed.call('PATCH', `/api/webhooks/${w.json.webhook.id}`, {
      body: { url: 'http://127.0.0.1:8080/hook' },
    });
    expect(local.status).toBe(200);
    expect(local.json.webhook.url).toBe('http://127.0.0.1:8080/hook');
  });

  it('rotate-secret: during the grace both secrets verify a ping, with 0 only the new (docs/changes-and-webhooks.md#rotating-a-webhooks-secret)', async () => {
    const hook = await receiver();
    cleanups.push(hook.close);
    const s = await startServer(target, { allowPrivateWebhookTargets: true });
    cleanups.push(() => s.close());
    const created = await s.call('POST', '/api/webhooks', { body: { url: hook.url, events: ['*'] } });
    const id = created.json.webhook.id as string;
    const first = created.json.secret as string;
    const rotate = (body: unknown) => s.call('POST', `/api/webhooks/${id}/rotate-secret`, { body });

    for (const body of [
      {},
      { graceSeconds: -1 },
      { graceSeconds: 604_801 },
      { graceSeconds: 1.5 },
      { graceSeconds: '60' },
    ]) {
      const r = await rotate(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await s.call('POST', '/api/webhooks/nope/rotate-secret', { body: { graceSeconds: 0 } })).status,
    ).toBe(404);

    const r1 = await rotate({ graceSeconds: 3600 });
    expect(r1.status).toBe(200);
    const second = r1.json.secret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(r1.json.webhook.id).toBe(id);
    expect(Date.parse(r1.json.previousSecretValidUntil) - Date.now()).toBeGreaterThan(3500_000);
    expect((await s.call('POST', `/api/webhooks/${id}/ping`)).json.ping.success).toBe(true);
    const during = hook.messages.at(-1)!;
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(accepts(first, during)).toBe(true);
    expect(accepts(second, during)).toBe(true);

    const r2 = await rotate({ graceSeconds: 0 });
    expect(r2.status).toBe(200);
    expect(r2.json.previousSecretValidUntil).toBeNull();
    const third = r2.json.secret as string;
    await s.call('POST', `/api/webhooks/${id}/ping`);
    const after = hook.messages.at(-1)!;
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(accepts(third, after)).toBe(true);
    expect(accepts(second, after)).toBe(false);
    expect(accepts(first, after)).toBe(false);

    // No answer but the rotation's shows a secret.
    const shown = JSON.stringify([
      (await s.call('GET', `/api/webhooks/${id}`)).json,
      (await s.call('GET', '/api/webhooks')).json,
      (await s.call('GET', `/api/webhooks/${id}/deliveries`)).json,
      (await s.call('PATCH', `/api/webhooks/${id}`, { body: { enabled: true } })).json,
    ]);
    for (const secret of [first, second, third]) expect(shown).not.toContain(secret.slice(6));
  });

  it('the dispatcher signs changes with both secrets during the grace, and logs neither', async () => {
    const hook = await receiver();
    cleanups.push(hook.close);
    const databaseUrl = await databaseFor(target, cleanups, 'webhooks-manage-');
    const s: ServerProcess = await spawnServer({
      DATABASE_URL: databaseUrl,
      WEBHOOK_API_KEY: 'rotation-test-key',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '100',
      LOG_LEVEL: 'debug',
    });
    cleanups.push(() => s.stop('SIGKILL'));
    const created = await s.call('POST', '/api/webhooks', { body: { url: hook.url, events: ['*'] } });
    const old = created.json.secret as string;
    const rotated = await s.call('POST', `/api/webhooks/${created.json.webhook.id}/rotate-secret`, {
      body: { graceSeconds: 600 },
    });
    const fresh = rotated.json.secret as string;
    await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
    const deadline = Date.now() + 30_000;
    while (hook.messages.length === 0) {
      if (Date.now() > deadline) throw new Error('no delivery');
      await new Promise((r) => setTimeout(r, 50));
    }
    const delivery = hook.messages[0]!;
    expect(delivery.headers['webhook-id']).toMatch(/^chg_/);
    expect(accepts(old, delivery)).toBe(true);
    expect(accepts(fresh, delivery)).toBe(true);
    for (const secret of [old, fresh]) expect(s.output()).not.toContain(secret.slice(6));
  }, 60_000);
});
