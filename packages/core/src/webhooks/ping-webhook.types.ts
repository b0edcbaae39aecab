import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text, timestamp } from '../schemas/common.ts';
import { sampleWebhook } from './webhook.ts';

export const pingWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'POST',
    path: '/api/webhooks/{id}/ping',
    protect: true,
    tags: ['webhooks'],
    summary: 'Send a signed test message to a webhook, now',
    description:
      'POSTs `{"type": "ping", "webhookId": <id>}`, signed like every delivery (its own `webhook-id`, `ping_…`), ' +
      'and answers with what the receiver did: `statusCode` (null when it could not be reached), `success` (2xx), ' +
      '`error`, `durationMs`. It is recorded among the deliveries (`type: "ping"`, its `id` here), with what it ' +
      'sent and received (`GET /api/webhooks/{id}/deliveries/{deliveryId}`), but it is not a delivery: it never ' +
      'counts towards disabling (nor ends a run of failures) and cannot be redelivered. A disabled webhook is ' +
      'pinged as well. 404 for an unknown webhook.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id },
    response: {
      success: true,
      ping: {
        id: '40',
        messageId: 'ping_8xJ2kQ0bVn3sLw1e',
        statusCode: 204,
        success: true,
        error: null,
        durationMs: 21,
        at: '2026-11-23T08:14:40.002Z',
      },
    },
  },
};

export const PingWebhookInput = z.object({ id: text({ max: 100 }) });

export const PingWebhookOutput = z.object({
  success: z.literal(true),
  ping: z.object({
    id: z.string().meta({ description: "The ping's attempt (`deliveryId` of its detail)" }),
    messageId: z.string().meta({ description: 'The `webhook-id` sent' }),
    statusCode: z.int().min(0).nullable(),
    success: z.boolean(),
    error: z.string().nullable(),
    durationMs: z.int().min(0),
    at: timestamp,
  }),
});
