import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { sampleWebhook, Webhook } from './webhook.ts';

export const listWebhooksMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'GET',
    path: '/api/webhooks',
    protect: true,
    tags: ['webhooks'],
    summary: 'List webhooks',
    description:
      "The key's own webhooks (an admin key's: every webhook, each with its `owner`), oldest first, with " +
      "whether it is enabled. Secrets are never shown. Another key's webhook is 404 on every webhook route.",
  },
  examples: { request: { enabled: 'true' }, response: { success: true, webhooks: [sampleWebhook] } },
};

export const ListWebhooksInput = z.object({
  enabled: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Only the enabled (true) or the disabled (false) webhooks' }),
});

export const ListWebhooksOutput = z.object({ success: z.literal(true), webhooks: z.array(Webhook) });
