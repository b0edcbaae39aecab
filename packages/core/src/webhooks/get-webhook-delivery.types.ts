import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Delivery } from './list-webhook-deliveries.types.ts';
import { sampleWebhook } from './webhook.ts';

const sampleBody =
  '{"type":"project.updated","timestamp":"2026-11-23T08:15:02.417Z","data":{"cursor":"YzEuNzU3LjM",' +
  '"type":"project.updated","at":"2026-11-23T08:15:02.417Z","projectId":"cmi9x1k0a0000qz8h3v2l5m7n",' +
  '"slug":"qwen","taskId":null}}';

export const getWebhookDeliveryMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries/{deliveryId}',
    protect: true,
    tags: ['webhooks'],
    summary: 'One delivery attempt (or ping): the request sent and the response received',
    description:
      'An attempt of `GET /api/webhooks/{id}/deliveries` with what it sent — `request`: the URL, the headers ' +
      '(`webhook-signature` holds signatures, never the secret) and the body, exactly as sent — and what came ' +
      'back — `response`: the status code, the headers (names lower-case, at most the first 50 and 8 KB), the ' +
      'first 4096 bytes of the body decoded as UTF-8 without splitting a character (`bodyTruncated` when the ' +
      'answer had more), the duration and the error. `statusCode`, `headers` and `body` are null when no answer ' +
      'came (the target could not be reached, or did not answer in time). `request` is null, and so are the ' +
      "response's headers and body, for attempts recorded before these were kept. 404 for an unknown webhook, " +
      'or a `deliveryId` that is not one of its attempts.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id, deliveryId: '42' },
    response: {
      success: true,
      delivery: {
        id: '42',
        webhookId: sampleWebhook.id,
        type: 'change',
        messageId: 'chg_311',
        event: 'project.updated',
        statusCode: 200,
        success: true,
        error: null,
        durationMs: 38,
        at: '2026-11-23T08:15:09.871Z',
        request: {
          method: 'POST',
          url: sampleWebhook.url,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'project-directory-webhooks/1',
            'webhook-id': 'chg_311',
            'webhook-timestamp': '1795421709',
            'webhook-signature': 'v1,Hwb5LWPEFQ/KeIUmEvC4qDmhZqBUTs03XBKyAaTbFkM=',
            'content-length': '222',
          },
          body: sampleBody,
        },
        response: {
          statusCode: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '38' },
          body: '{"ok":true,"消息":"已收入索引"}',
          bodyTruncated: false,
          durationMs: 38,
          error: null,
        },
      },
    },
  },
};

export const GetWebhookDeliveryInput = z.object({
  id: text({ max: 100 }),
  // Any text: one that is not an attempt's id is 404, as an unknown id is.
  deliveryId: z.string().meta({ description: 'The `id` of a delivery attempt or ping' }),
});

const Headers = z.record(z.string(), z.string());

export const DeliveryDetail = Delivery.extend({
  request: z
    .object({
      method: z.literal('POST'),
      url: z.string(),
      headers: Headers.meta({ description: 'As sent, names lower-case; signatures, never the secret' }),
      body: z.string().meta({ description: 'The body sent, exactly' }),
    })
    .nullable()
    .meta({ description: 'What was sent; null for attempts recorded before it was kept' }),
  response: z.object({
    statusCode: z.int().min(0).nullable(),
    headers: Headers.nullable().meta({
      description:
        'As received, names lower-case, repeated ones joined with ", "; at most the first 50 and 8 KB',
    }),
    body: z.string().nullable().meta({
      description: 'The first 4096 bytes of the answer, decoded as UTF-8 without splitting a character',
    }),
    bodyTruncated: z.boolean().meta({ description: 'The answer had more than 4096 bytes' }),
    durationMs: z.int().min(0),
    error: z.string().nullable(),
  }),
});

export const GetWebhookDeliveryOutput = z.object({ success: z.literal(true), delivery: DeliveryDetail });
