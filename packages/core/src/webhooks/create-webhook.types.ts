import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { httpUrl, optional, text } from '../schemas/common.ts';
import { sampleWebhook, Webhook, WebhookEvent } from './webhook.ts';

export const createWebhookMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'POST',
    path: '/api/webhooks',
    protect: true,
    tags: ['webhooks'],
    summary: 'Subscribe a URL to changes (signed POSTs, at least once)',
    description:
      'Each change of a subscribed type (or every type with "*") is POSTed as JSON ' +
      '`{type, timestamp, data: <change as in GET /api/changes>}` to `url`, signed per the Standard ' +
      'Webhooks specification with the `secret` returned here — shown once, never again. ' +
      "`webhook-id` is the change's id and stays the same across retries. Only a 2xx answer is " +
      'success; failures are retried with exponential backoff and jitter (first retry after about ' +
      '5 s) for about 24 h, and after WEBHOOK_MAX_FAILURES consecutive failures the webhook is ' +
      'disabled. Targets on loopback or private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1.',
  },
  examples: {
    request: { url: sampleWebhook.url, events: sampleWebhook.events, description: sampleWebhook.description },
    response: { success: true, webhook: sampleWebhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  },
};

export const CreateWebhookInput = z.object({
  url: httpUrl,
  events: z
    .array(WebhookEvent)
    .min(1)
    .max(6)
    .refine((e) => new Set(e).size === e.length, 'Events must not repeat'),
  description: optional(text({ max: 500 })),
});

export const CreateWebhookOutput = z.object({
  success: z.literal(true),
  webhook: Webhook,
  secret: z.string().meta({ description: 'The signing secret (whsec_…); shown only in this answer' }),
});
