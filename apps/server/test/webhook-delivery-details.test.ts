import { pruneChanges, sql } from '@directory/db';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeSignal } from '../src/changes/signal.ts';
import { createLogger } from '../src/logger.ts';
import { startDispatcher } from '../src/webhooks/dispatcher.ts';
import { closedPort, receiver } from './answering-receiver.ts';
import { project, startServer, type TestServer, targets } from './helpers.ts';

/**
 * What a delivery attempt keeps of its request and response, pings among the deliveries
 * (docs/changes-and-webhooks.md#a-deliverys-request-and-response).
 */

describe.each(targets)('delivery details on $name', (target) => {
  let s: TestServer;
  let r: Awaited<ReturnType<typeof receiver>>;
  let hook: { id: string; secret: string };
  beforeAll(async () => {
    r = await receiver();
    s = await startServer(target, { allowPrivateWebhookTargets: true, webhookTimeoutMs: 2_000 });
    const created = await s.call('POST', '/api/webhooks', { body: { url: r.url, events: ['*'] } });
    hook = { id: created.json.webhook.id, secret: created.json.secret };
  });
  afterAll(async () => {
    await s.close();
    await r.close();
  });

  const detail = (deliveryId: string, id = hook.id) =>
    s.call('GET', `/api/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}`);
  const list = async (id = hook.id) =>
    (await s.call('GET', `/api/webhooks/${id}/deliveries?limit=100`)).json.deliveries as any[];
  const ping = async () => (await s.call('POST', `/api/webhooks/${hook.id}/ping`)).json.ping;

  it("the dispatcher's attempt: the exact body sent and the signature a receiver verifies", async () => {
    r.state.answer = (_, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'X-Receiver': 'search' })
        .end('{"ok":"已收到"}');
    const dispatcher = startDispatcher({
      db: s.db.db,
      signal: new ChangeSignal(),
      logger: createLogger('silent'),
      allowPrivateTargets: true,
      maxFailures: 20,
      timeoutMs: 2_000,
      retryBaseMs: 60_000,
      pollMs: 50,
    });
    try {
      const before = r.got.length;
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
      const deadline = Date.now() + 20_000;
      while (!(await list()).some((d) => d.type === 'change')) {
        if (Date.now() > deadline) throw new Error('no delivery');
        await new Promise((done) => setTimeout(done, 50));
      }
      const got = r.got.slice(before).find((g) => g.headers['webhook-id']?.startsWith('chg_'))!;
      const item = (await list()).find((d) => d.type === 'change')!;
      expect(item).toMatchObject({ webhookId: hook.id, event: 'project.created', statusCode: 200 });
      const reply = await detail(item.id);
      expect(reply.status, reply.text).toBe(200);
      const d = reply.json.delivery;
      expect(d).toMatchObject({ ...item, request: { method: 'POST', url: r.url, body: got.body } });
      for (const name of [
        'content-type',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'content-length',
      ])
        expect(d.request.headers[name], name).toBe(got.headers[name]);
      // what a Standard Webhooks receiver checks, from the detail alone
      expect(new Webhook(hook.secret).verify(d.request.body, d.request.headers)).toEqual(
        JSON.parse(got.body),
      );
      expect(d.response).toEqual({
        statusCode: 200,
        headers: expect.objectContaining({ 'content-type': 'application/json', 'x-receiver': 'search' }),
        body: '{"ok":"已收到"}',
        bodyTruncated: false,
        durationMs: item.durationMs,
        error: null,
      });
    } finally {
      await dispatcher.stop();
    }
  });

  it('an answer of 10 KB is kept as 4096 bytes; a multi-byte one is cut between characters', async () => {
    r.state.answer = (_, res) => res.writeHead(200).end('a'.repeat(10 * 1024));
    const long = await detail((await ping()).id);
    expect(long.json.delivery.response.body).toHaveLength(4096);
    expect(long.json.delivery.response.bodyTruncated).toBe(true);

    // 3-byte characters: 4096 bytes end inside the 1366th
    r.state.answer = (_, res) =>
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('中'.repeat(3000));
    const cjk = (await detail((await ping()).id)).json.delivery.response;
    expect(cjk.body).toBe('中'.repeat(1365));
    expect(cjk.bodyTruncated).toBe(true);

    r.state.answer = (_, res) => res.writeHead(200).end('中'.repeat(10));
    const whole = (await detail((await ping()).id)).json.delivery.response;
    expect(whole).toMatchObject({ body: '中'.repeat(10), bodyTruncated: false });
  });

  it('a failing target: 503 with its answer, and a refused connection with no answer', async () => {
    r.state.answer = (_, res) => res.writeHead(503, { 'retry-after': '30' }).end('busy');
    const failed = (await detail((await ping()).id)).json.delivery;
    expect(failed).toMatchObject({ statusCode: 503, success: false, error: 'HTTP 503' });
    expect(failed.response).toMatchObject({
      statusCode: 503,
      headers: expect.objectContaining({ 'retry-after': '30' }),
      body: 'busy',
      error: 'HTTP 503',
    });

    const other = await s.call('POST', '/api/webhooks', {
      body: { url: `http://127.0.0.1:${await closedPort()}/hook`, events: ['*'] },
    });
    const otherId = other.json.webhook.id as string;
    const refused = (await s.call('POST', `/api/webhooks/${otherId}/ping`)).json.ping;
    expect(refused).toMatchObject({ statusCode: null, success: false });
    const d = (await detail(refused.id, otherId)).json.delivery;
    expect(d.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    expect(d.response).toMatchObject({ statusCode: null, headers: null, body: null, bodyTruncated: false });
    expect(d.response.error).toMatch(/ECONNREFUSED/);
    // a ping never counts towards disabling
    expect((await s.call('GET', `/api/webhooks/${otherId}`)).json.webhook.consecutiveFailures).toBe(0);
    await s.call('DELETE', `/api/webhooks/${otherId}`);
  });

  it('a ping is listed with type "ping", has a detail, and is not redelivered (409)', async () => {
    r.state.answer = (_, res) => res.writeHead(204).end();
    const before = r.got.length;
    const p = await ping();
    expect(p).toMatchObject({ statusCode: 204, success: true, messageId: expect.stringMatching(/^ping_/) });
    const listed = (await list())[0];
    expect(listed).toMatchObject({
      id: p.id,
      type: 'ping',
      event: 'ping',
      messageId: p.messageId,
      statusCode: 204,
      at: p.at,
    });
    const d = (await detail(p.id)).json.delivery;
    expect(d.request.body).toBe(r.got[before]!.body);
    expect(JSON.parse(d.request.body)).toEqual({ type: 'ping', webhookId: hook.id });
    expect(new Webhook(hook.secret).verify(d.request.body, d.request.headers)).toBeTruthy();
    expect(d.response).toMatchObject({ statusCode: 204, body: '', bodyTruncated: false });
    const again = await s.call('POST', `/api/webhooks/${hook.id}/deliveries/${p.id}/redeliver`);
    expect(again.status, again.text).toBe(409);
    // nor is it counted among delivery attempts
    const attempts = (
      await sql<{ n: number }>`
      select count(*)::int as n from webhook_attempts where type = 'change' and success`.execute(s.db.db)
    ).rows[0]!.n;
    expect((await s.call('GET', '/metrics')).text).toContain(
      `webhook_delivery_attempts{outcome="success"} ${attempts}\n`,
    );
    expect(again.json.details[0]).toMatch(/is a ping/);
  });

  it('a redelivery keeps its exchange too', async () => {
    const change = (await list()).find((d) => d.type === 'change')!;
    r.state.answer = (_, res) => res.writeHead(202).end('again');
    const again = await s.call('POST', `/api/webhooks/${hook.id}/deliveries/${change.id}/redeliver`);
    expect(again.json.delivery).toMatchObject({
      type: 'change',
      messageId: change.messageId,
      statusCode: 202,
    });
    const d = (await detail(again.json.delivery.id)).json.delivery;
    expect(d.request.headers['webhook-id']).toBe(change.messageId);
    expect(d.response).toMatchObject({ statusCode: 202, body: 'again' });
    expect(new Webhook(hook.secret).verify(d.request.body, d.request.headers)).toBeTruthy();
  });

  it("404 for another webhook's attempt, an unknown webhook, and a deliveryId that is no attempt", async () => {
    const mine = (await list())[0].id as string;
    const other = await s.call('POST', '/api/webhooks', {
      body: { url: 'https://203.0.113.9/hook', events: ['*'] },
    });
    const otherId = other.json.webhook.id as string;
    for (const [id, deliveryId] of [
      [otherId, mine],
      ['no-such-webhook', mine],
      [hook.id, '999999999'],
      [hook.id, 'abc'],
      [hook.id, '0'],
      [hook.id, '-1'],
      [hook.id, '1.5'],
      [hook.id, '99999999999999999999999'],
      [hook.id, ' 1'],
    ] as const) {
      const reply = await detail(deliveryId, id);
      expect(reply.status, `${id} ${deliveryId}`).toBe(404);
      expect(reply.json).toMatchObject({ success: false, error: 'Not Found' });
    }
    await s.call('DELETE', `/api/webhooks/${otherId}`);
  });

  it('an attempt recorded before requests were kept: request null, the response without headers or body', async () => {
    const { rows } = await sql<{ id: string }>`
      insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms)
      select webhook_id, id, change_id, 'project.created', 500, 'HTTP 500', false, 7
      from webhook_deliveries where webhook_id = ${hook.id} limit 1
      returning id::text as id
    `.execute(s.db.db);
    const d = (await detail(rows[0]!.id)).json.delivery;
    expect(d).toMatchObject({ type: 'change', statusCode: 500, request: null });
    expect(d.response).toEqual({
      statusCode: 500,
      headers: null,
      body: null,
      bodyTruncated: false,
      durationMs: 7,
      error: 'HTTP 500',
    });
  });

  it('retention removes an old attempt with what it kept, a ping too', async () => {
    const p = await ping();
    await sql`update webhook_attempts set at = now() - interval '31 days' where id = ${p.id}::bigint`.execute(
      s.db.db,
    );
    await pruneChanges(s.db.db, 30);
    expect((await detail(p.id)).status).toBe(404);
    expect((await list()).map((d) => d.id)).not.toContain(p.id);
  });

  it('no secret anywhere in the list or a detail', async () => {
    const items = await list();
    const details = await Promise.all(items.map(async (d) => (await detail(d.id)).text));
    const shown = JSON.stringify(items) + details.join('');
    expect(shown).not.toContain('whsec_');
    expect(shown).not.toContain(hook.secret.slice(6));
    const stored = await sql<{ row: string }>`select w::text as row from webhook_attempts w`.execute(s.db.db);
    expect(JSON.stringify(stored.rows)).not.toContain(hook.secret.slice(6));
  });
});
