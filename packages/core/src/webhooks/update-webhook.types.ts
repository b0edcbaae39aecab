import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { sampleWebhook, Webhook } from './webhook.ts';

export const updateWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'PATCH',
    path: '/api/webhooks/{id}',
    protect: true,
    tags: ['webhooks'],
    summary: 'Enable or disable a webhook',
    description:
      '`enabled: false` stops deliveries (changes are still queued for it); `enabled: true` starts them again with ' +
      'a new run of failures, sending what was queued meanwhile (within the 24 h a delivery is retried). ' +
      '404 for an unknown webhook.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id, enabled: true },
    response: { success: true, webhook: sampleWebhook },
  },
};

export const UpdateWebhookInput = z.object({ id: text({ max: 100 }), enabled: z.boolean() });

export const UpdateWebhookOutput = z.object({ success: z.literal(true), webhook: Webhook });
