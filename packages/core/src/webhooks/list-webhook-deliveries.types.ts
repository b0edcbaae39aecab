import { z } from 'zod';
import { CHANGE_TYPES } from '../changes/feed.ts';
import type { Meta } from '../meta.ts';
import { text, timestamp } from '../schemas/common.ts';
import { queryInt } from '../schemas/query.ts';
import { sampleWebhook } from './webhook.ts';

export const listWebhookDeliveriesMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries',
    protect: true,
    tags: ['webhooks'],
    summary: 'Recent delivery attempts of a webhook (newest first by time)',
    description:
      'Each attempt to POST a change, and each ping (`type`): the event, the status code the target answered ' +
      '(null when it could not be reached), the error, whether it counted as success (2xx), and when; newest ' +
      'first by time. What an attempt sent and received: `GET /api/webhooks/{id}/deliveries/{deliveryId}`; send ' +
      'a change again with `POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver`.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id, limit: 3 },
    response: {
      success: true,
      deliveries: [
        {
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
        },
        {
          id: '41',
          webhookId: sampleWebhook.id,
          type: 'change',
          messageId: 'chg_311',
          event: 'project.updated',
          statusCode: 503,
          success: false,
          error: 'HTTP 503',
          durationMs: 12,
          at: '2026-11-23T08:15:04.502Z',
        },
        {
          id: '40',
          webhookId: sampleWebhook.id,
          type: 'ping',
          messageId: 'ping_8xJ2kQ0bVn3sLw1e',
          event: 'ping',
          statusCode: 204,
          success: true,
          error: null,
          durationMs: 21,
          at: '2026-11-23T08:14:40.002Z',
        },
      ],
    },
  },
};

export const ListWebhookDeliveriesInput = z.object({
  id: text({ max: 100 }),
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
});

export const Delivery = z.object({
  id: z.string().meta({ description: "The attempt's id (`deliveryId` in the paths below the list)" }),
  webhookId: z.string().meta({ description: 'The webhook this attempt was made for' }),
  type: z
    .enum(['change', 'ping'])
    .meta({ description: 'A change sent (by the dispatcher or a redelivery), or a ping' }),
  messageId: z.string().meta({
    description:
      "The `webhook-id` header sent (`chg_<change id>`, the same on every retry; a ping's own `ping_…`)",
  }),
  event: z.enum([...CHANGE_TYPES, 'ping']).meta({ description: 'The change type sent, or `ping`' }),
  statusCode: z.number().int().min(0).nullable(),
  success: z.boolean(),
  error: z.string().nullable(),
  durationMs: z.number().int().min(0),
  at: timestamp,
});

export const ListWebhookDeliveriesOutput = z.object({
  success: z.literal(true),
  deliveries: z.array(Delivery),
});
