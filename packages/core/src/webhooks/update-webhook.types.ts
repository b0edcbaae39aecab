import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { CreateWebhookInput } from './create-webhook.types.ts';
import { sampleWebhook, Webhook } from './webhook.ts';

export const updateWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'PATCH',
    path: '/api/webhooks/{id}',
    protect: true,
    tags: ['webhooks'],
    summary: 'Enable or disable a webhook, or change its url or events',
    description:
      '`enabled: false` stops deliveries (changes are still queued for it); `enabled: true` starts them again with ' +
      'a new run of failures, sending what was queued meanwhile (within the 24 h a delivery is retried). ' +
      '`url` and `events` are checked as at creation (400 with the field errors; targets on loopback or ' +
      'private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1); the secret stays. Give at least one ' +
      'field. 404 for an unknown webhook.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id, enabled: true },
    response: { success: true, webhook: sampleWebhook },
  },
};

export const UpdateWebhookInput = z.object({
  id: text({ max: 100 }),
  enabled: optional(z.boolean()),
  url: optional(CreateWebhookInput.shape.url),
  events: optional(CreateWebhookInput.shape.events),
});

export const UpdateWebhookOutput = z.object({ success: z.literal(true), webhook: Webhook });
