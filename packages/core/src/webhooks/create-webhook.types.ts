import { z } from 'zod';
import { webhookUrlProblem } from '../domain/webhook-targets.ts';
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
      'disabled. `url` must be an http or https URL the WHATWG URL parser accepts (else 400). Targets on ' +
      'loopback or private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1.',
  },
  examples: {
    request: { url: sampleWebhook.url, events: sampleWebhook.events, description: sampleWebhook.description },
    response: { success: true, webhook: sampleWebhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  },
};

/**
 * A webhook's url: the URL rule of every stored URL, then the one URL parser
 * (docs/changes-and-webhooks.md#webhooks--key) — whatever WEBHOOK_ALLOW_PRIVATE says.
 */
export const webhookUrl = httpUrl.superRefine((s, ctx) => {
  if (!httpUrl.safeParse(s).success) return; // already refused, once
  const problem = webhookUrlProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const CreateWebhookInput = z.object({
  url: webhookUrl,
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
