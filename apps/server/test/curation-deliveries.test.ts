import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@directory/db';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/** A local receiver of webhook messages: answers `status`, keeps what it got. */
async function receiver(status: { code: number }) {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status.code;
      res.end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Webhook deliveries you can see (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see);
 * the rest of curation in curation.test.ts.
 */
describe.each(targets)('curation on $name', (target) => {
  const s = useServer(target, { allowPrivateWebhookTargets: true, webhookTimeoutMs: 2_000 }, 120_000);

  describe('webhook deliveries', () => {
    const status = { code: 500 };
    let r: Awaited<ReturnType<typeof receiver>>;
    beforeAll(async () => {
      r = await receiver(status);
    });
    afterAll(async () => {
      await r.close();
    });

    it('newest first by time; redeliver with the same webhook-id; ping; enable/disable', async () => {
      const created = await s.call('POST', '/api/webhooks', {
        body: { url: r.url, events: ['project.created'] },
      });
      expect(created.status, created.text).toBe(200);
      const { webhook, secret } = created.json;
      // a change queues a delivery (the trigger); two attempts recorded with ids out of time
      // order (as processes with unsynchronised clocks could), and a tenth, as strings sort wrong
      await sql`insert into changes (type, project_id, slug) values ('project.created', 'x', 'x')`.execute(
        s.db.db,
      );
      await sql`
        insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms, at)
        select d.webhook_id, d.id, d.change_id, 'project.created', 500, 'HTTP 500', false, 3,
          now() - (n || ' minutes')::interval
        from webhook_deliveries d, generate_series(1, 10) n where d.webhook_id = ${webhook.id}
      `.execute(s.db.db);
      await sql`
        insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms, at)
        select d.webhook_id, d.id, d.change_id, 'project.created', 503, 'HTTP 503', false, 3, now() - interval '1 hour'
        from webhook_deliveries d where d.webhook_id = ${webhook.id}
      `.execute(s.db.db);
      const deliveries = async () =>
        (await s.call('GET', `/api/webhooks/${webhook.id}/deliveries?limit=100`)).json.deliveries as {
          id: string;
          messageId: string;
          at: string;
          statusCode: number | null;
        }[];
      const listed = await deliveries();
      expect(listed).toHaveLength(11);
      const times = listed.map((d) => Date.parse(d.at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(listed.at(-1)!.statusCode).toBe(503);
      const first = listed[0];

      status.code = 204;
      const before = r.got.length;
      const again = await s.call('POST', `/api/webhooks/${webhook.id}/deliveries/${first!.id}/redeliver`);
      expect(again.status, again.text).toBe(200);
      expect(again.json.delivery).toMatchObject({
        statusCode: 204,
        success: true,
        messageId: first!.messageId,
      });
      const sent = r.got.slice(before).find((g) => g.headers['webhook-id'] === first!.messageId);
      expect(sent).toBeDefined();
      new Webhook(secret).verify(sent!.body, sent!.headers as Record<string, string>);
      expect((await deliveries())[0]!.id).toBe(again.json.delivery.id);

      const ping = await s.call('POST', `/api/webhooks/${webhook.id}/ping`);
      expect(ping.status, ping.text).toBe(200);
      expect(ping.json.ping).toMatchObject({ statusCode: 204, success: true });
      const pinged = r.got.find((g) => g.headers['webhook-id'] === ping.json.ping.messageId)!;
      expect(JSON.parse(pinged.body)).toEqual({ type: 'ping', webhookId: webhook.id });
      new Webhook(secret).verify(pinged.body, pinged.headers as Record<string, string>);

      const off = await s.call('PATCH', `/api/webhooks/${webhook.id}`, { body: { enabled: false } });
      expect(off.json.webhook).toMatchObject({ enabled: false });
      const on = await s.call('PATCH', `/api/webhooks/${webhook.id}`, { body: { enabled: true } });
      expect(on.json.webhook).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledAt: null });

      expect((await s.call('POST', `/api/webhooks/${webhook.id}/deliveries/999999/redeliver`)).status).toBe(
        404,
      );
      expect((await s.call('POST', `/api/webhooks/${webhook.id}/deliveries/abc/redeliver`)).status).toBe(400);
      expect((await s.call('POST', '/api/webhooks/nope/ping')).status).toBe(404);
    });
  });
});
