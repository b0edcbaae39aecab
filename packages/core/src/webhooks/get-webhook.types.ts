import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { sampleWebhook, Webhook } from './webhook.ts';

export const getWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'GET',
    path: '/api/webhooks/{id}',
    protect: true,
    tags: ['webhooks'],
    summary: 'Get a webhook',
    description: 'One webhook by id, with whether it is enabled and its current run of failures.',
  },
  errors: ['NOT_FOUND'],
  examples: { request: { id: sampleWebhook.id }, response: { success: true, webhook: sampleWebhook } },
};

export const GetWebhookInput = z.object({ id: text({ max: 100 }) });

export const GetWebhookOutput = z.object({ success: z.literal(true), webhook: Webhook });
