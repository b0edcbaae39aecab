import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  databaseFor,
  project,
  type ServerProcess,
  spawnServer,
  startServer,
  targets,
  uniqueUrl,
} from './helpers.ts';

const KEY = 'webhook-test-key';
const FAST = {
  WEBHOOK_API_KEY: KEY,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_MAX_FAILURES: '6',
};

interface Received {
  id: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A local webhook receiver; `answer` decides each request's status (or hangs when it returns 0). */
async function receiver(answer: (r: Received, attempt: number) => number) {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const r = { id: String(req.headers['webhook-id']), body, headers: req.headers };
      received.push(r);
      const n = (attempts.get(r.id) ?? 0) + 1;
      attempts.set(r.id, n);
      const status = answer(r, n);
      if (status) res.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    attempts,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(targets)('webhooks on $name', (target) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A database URL for server processes, dropped/removed after the test. */
  const database = () => databaseFor(target, cleanups, 'webhooks-');
  async function server(env: Record<string, string>): Promise<ServerProcess> {
    const s = await spawnServer({ ...FAST, ...env });
    cleanups.push(() => s.stop('SIGKILL'));
    return s;
  }
  async function subscribe(s: ServerProcess, url: string) {
    const r = await s.call('POST', '/api/webhooks', { body: { url, events: ['*'], description: 'test' } });
    expect(r.status).toBe(200);
    expect(r.json.secret).toMatch(/^whsec_/);
    return { id: r.json.webhook.id as string, secret: r.json.secret as string };
  }
  async function feedCursors(s: ServerProcess): Promise<string[]> {
    const r = await s.call('GET', '/api/changes?limit=1000');
    return r.json.changes.map((c: { cursor: string }) => c.cursor);
  }

  it('delivers every change, signed, retrying failures with a stable webhook-id', async () => {
    const hook = await receiver((_, attempt) => (attempt <= 2 ? 500 : 200));
    cleanups.push(hook.close);
    // 4 messages failing twice each may fail 8 times in a row: more than the other tests' limit.
    const s = await server({ DATABASE_URL: await database(), WEBHOOK_MAX_FAILURES: '20' });
    const { id, secret } = await subscribe(s, hook.url);
    await s.call('POST', '/api/webhook/projects', { body: { projects: [project(), project(), project()] } });
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: uniqueUrl('hook') }] } });
    const cursors = await feedCursors(s);
    expect(cursors).toHaveLength(4);
    await until(
      'every change acknowledged',
      () => [...hook.attempts.values()].filter((n) => n >= 3).length === 4,
    );

    const verifier = new Webhook(secret);
    const delivered = new Set<string>();
    for (const r of hook.received) {
      const message = verifier.verify(r.body, r.headers as Record<string, string>) as any;
      expect(message.data.cursor).toBeDefined();
      expect(r.id).toMatch(/^chg_\d+$/);
      delivered.add(message.data.cursor);
      // Neither the API key nor the secret travels with a delivery.
      expect(JSON.stringify(r)).not.toContain(KEY);
      expect(JSON.stringify(r)).not.toContain(secret.slice(6));
    }
    expect([...delivered].sort()).toEqual([...cursors].sort());
    // Each message: two refusals, then success, always with the same id.
    expect([...hook.attempts.values()]).toEqual([3, 3, 3, 3]);

    const log = await s.call('GET', `/api/webhooks/${id}/deliveries?limit=100`);
    expect(log.json.deliveries).toHaveLength(12);
    // webhookId is the webhook's own id; messageId is the `webhook-id` header the attempt sent.
    for (const d of log.json.deliveries) expect(d.webhookId).toBe(id);
    expect(new Set(log.json.deliveries.map((d: any) => d.messageId))).toEqual(
      new Set(hook.received.map((r) => r.id)),
    );
    expect(log.json.deliveries.filter((d: any) => d.success).map((d: any) => d.statusCode)).toEqual([
      200, 200, 200, 200,
    ]);
    expect(log.json.deliveries.find((d: any) => !d.success)).toMatchObject({
      statusCode: 500,
      error: 'HTTP 500',
    });
    const webhook = await s.call('GET', `/api/webhooks/${id}`);
    expect(webhook.json.webhook).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    expect(
      JSON.stringify([webhook.json, log.json, (await s.call('GET', '/api/webhooks')).json]),
    ).not.toContain(secret.slice(6));
    const metrics = await s.call('GET', '/metrics');
    expect(metrics.text).toMatch(/webhook_deliveries\{state="DELIVERED"\} 4/);
    expect(metrics.text).toMatch(/webhook_delivery_attempts\{outcome="failure"\} 8/);
    expect(metrics.text).toMatch(/changes_feed_lag_seconds 0/);
  }, 60_000);

  it('redelivers after a server killed mid-delivery restarts', async () => {
    let hang = true;
    let inFlight = false;
    const hook = await receiver(() => {
      if (hang) {
        inFlight = true;
        return 0; // never answers: the server is killed while waiting
      }
      return 200;
    });
    cleanups.push(hook.close);
    const env = { DATABASE_URL: await database(), WEBHOOK_TIMEOUT_MS: '20000' };
    const first = await server(env);
    await subscribe(first, hook.url);
    await first.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: uniqueUrl('kill') }] } });
    await until('the delivery in flight', () => inFlight);
    await first.stop('SIGKILL');
    hang = false;
    // A short timeout after the restart: the killed attempt's lease (timeout + 5 s) runs out.
    const second = await server({ ...env, WEBHOOK_TIMEOUT_MS: '1000' });
    await until('the redelivery', () => hook.received.length >= 2, 40_000);
    expect(hook.received[1]!.id).toBe(hook.received[0]!.id);
    expect((await second.call('GET', '/metrics')).text).toMatch(/webhook_deliveries\{state="DELIVERED"\} 1/);
  }, 90_000);

  it('disables a webhook whose target always fails, at WEBHOOK_MAX_FAILURES', async () => {
    const hook = await receiver(() => 503);
    cleanups.push(hook.close);
    const s = await server({ DATABASE_URL: await database() });
    const { id } = await subscribe(s, hook.url);
    await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: [{ sourceUrl: uniqueUrl('fail') }, { sourceUrl: uniqueUrl('fail') }] },
    });
    await until('the webhook disabled', async () => {
      const r = await s.call('GET', `/api/webhooks/${id}`);
      return r.json.webhook.enabled === false;
    });
    const webhook = (await s.call('GET', `/api/webhooks/${id}`)).json.webhook;
    expect(webhook).toMatchObject({ enabled: false, consecutiveFailures: 6 });
    expect(webhook.disabledAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hook.received).toHaveLength(6);
    expect((await s.call('GET', '/api/webhooks?enabled=false')).json.webhooks.map((w: any) => w.id)).toEqual([
      id,
    ]);
  }, 60_000);

  it('refuses loopback and private targets unless WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const s = await startServer(target);
    cleanups.push(() => s.close());
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const r = await s.call('POST', '/api/webhooks', { body: { url, events: ['*'] } });
      expect(r.status, url).toBe(400);
      expect(r.json.details[0], url).toMatch(/^url: Targets on loopback or private addresses/);
    }
    expect((await s.call('GET', '/api/webhooks')).json.webhooks).toEqual([]);
    const ok = await s.call('POST', '/api/webhooks', {
      body: { url: 'https://203.0.113.9/hook', events: ['project.created', 'task.created'] },
    });
    expect(ok.status).toBe(200);
    const allowed = await startServer(target, { allowPrivateWebhookTargets: true });
    cleanups.push(() => allowed.close());
    expect(
      (
        await allowed.call('POST', '/api/webhooks', {
          body: { url: 'http://127.0.0.1:8080/hook', events: ['*'] },
        })
      ).status,
    ).toBe(200);
  });
});
