import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { sampleWebhook } from './webhook.ts';

export const deleteWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'DELETE',
    path: '/api/webhooks/{id}',
    protect: true,
    tags: ['webhooks'],
    summary: 'Delete a webhook with its queued deliveries',
    description:
      'Stops deliveries to the webhook: deliveries still queued are dropped, and its recorded attempts go with it.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id },
    response: { success: true, message: `Webhook "${sampleWebhook.id}" deleted successfully` },
  },
};

export const DeleteWebhookInput = z.object({ id: text({ max: 100 }) });

export const DeleteWebhookOutput = z.object({ success: z.literal(true), message: z.string() });
