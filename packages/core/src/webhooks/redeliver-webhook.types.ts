import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Delivery } from './list-webhook-deliveries.types.ts';
import { sampleWebhook } from './webhook.ts';

export const redeliverWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'POST',
    path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    protect: true,
    tags: ['webhooks'],
    summary: 'Send a delivery again, now',
    description:
      'A new attempt at the change that delivery `deliveryId` (an `id` of `GET /api/webhooks/{id}/deliveries`) ' +
      'carried, made now and answered with its outcome: the same body and the same `webhook-id` (a receiver ' +
      'that already has the message can drop it), signed anew. It is recorded as a delivery attempt; a success ' +
      'marks the delivery delivered and ends the run of failures. A disabled webhook is sent to as well (it stays ' +
      'disabled). 404 for an unknown webhook or delivery; 409 for a ping (send a new one); 410 when the change ' +
      'is no longer kept.',
  },
  errors: ['NOT_FOUND', 'CONFLICT', 'GONE'],
  examples: {
    request: { id: sampleWebhook.id, deliveryId: '41' },
    response: {
      success: true,
      delivery: {
        id: '43',
        webhookId: sampleWebhook.id,
        type: 'change',
        messageId: 'chg_311',
        event: 'project.updated',
        statusCode: 200,
        success: true,
        error: null,
        durationMs: 35,
        at: '2026-11-23T08:20:00.114Z',
      },
    },
  },
};

export const RedeliverWebhookInput = z.object({
  id: text({ max: 100 }),
  deliveryId: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'Must be a delivery id (a positive integer of at most 18 digits)')
    .meta({ description: 'The `id` of a delivery attempt' }),
});

export const RedeliverWebhookOutput = z.object({ success: z.literal(true), delivery: Delivery });
