import { recordPing } from '@directory/db';
import { pingMessage } from '../domain/webhook-delivery.ts';
import { iso } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import { PingWebhookInput, PingWebhookOutput, pingWebhookMeta } from './ping-webhook.types.ts';
import { sendNow } from './send-now.ts';
import { secretsOf, visibleWebhook, webhookNotFound } from './webhook.ts';

/**
 * POST /api/webhooks/{id}/ping
 * (docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage):
 * sent now and recorded as an attempt of type "ping", which never counts towards disabling.
 */
export const pingWebhook = keyedProcedure
  .meta(pingWebhookMeta)
  .input(PingWebhookInput)
  .output(PingWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    const webhook = await visibleWebhook(ctx, input.id);
    const { id, body } = pingMessage(webhook.id);
    const sent = await sendNow(ctx, { url: webhook.url, secrets: secretsOf(webhook) }, { id, body });
    const attempt = await recordPing(ctx.db, { webhookId: webhook.id, messageId: id, ...sent });
    // deleted while the ping was on its way: nothing is kept of it
    if (!attempt) throw webhookNotFound(input.id);
    return {
      success: true as const,
      ping: {
        id: attempt.id,
        messageId: id,
        statusCode: attempt.statusCode,
        success: attempt.success,
        error: attempt.error,
        durationMs: attempt.durationMs,
        at: iso(attempt.at),
      },
    };
  });
