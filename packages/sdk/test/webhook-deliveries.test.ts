import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryClient,
  DirectoryError,
  verifyWebhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
} from '../src/index.ts';

// client.webhooks.delivery: what an attempt sent and received
// (docs/changes-and-webhooks.md#a-deliverys-request-and-response).
describe('a delivery with the SDK', () => {
  let s: TestServer;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('已收到'));
  });
  let url: string;
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((r) => receiver.once('listening', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    s = await startServer({ postgres: false }, { allowPrivateWebhookTargets: true });
  });
  afterAll(async () => {
    await s?.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  it('webhooks.delivery shows a ping as sent (its signature verifies) and as answered; 404 otherwise', async () => {
    const client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
    const { webhook, secret } = await client.webhooks.create({ url, events: ['*'] });
    const { ping } = await client.webhooks.ping({ id: webhook.id });
    const listed: WebhookDelivery[] = (await client.webhooks.deliveries({ id: webhook.id })).deliveries;
    expect(listed.map((d) => [d.id, d.type, d.event])).toEqual([[ping.id, 'ping', 'ping']]);
    const { delivery }: { delivery: WebhookDeliveryDetail } = await client.webhooks.delivery({
      id: webhook.id,
      deliveryId: ping.id,
    });
    expect(delivery.request).not.toBeNull();
    expect(verifyWebhook(secret, delivery.request!.headers, delivery.request!.body)).toMatchObject({
      type: 'ping',
    });
    expect(delivery.response).toMatchObject({ statusCode: 200, body: '已收到', bodyTruncated: false });
    const missing = await client.webhooks.delivery({ id: webhook.id, deliveryId: 'abc' }).catch((e) => e);
    expect(missing).toBeInstanceOf(DirectoryError);
    expect(missing.status).toBe(404);
  });
});
