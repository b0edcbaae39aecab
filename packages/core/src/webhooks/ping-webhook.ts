import { findWebhook } from '@directory/db';
import { pingMessage, signedHeaders, signingSecrets } from '../domain/webhook-delivery.ts';
import { keyedProcedure } from '../trpc.ts';
import { PingWebhookInput, PingWebhookOutput, pingWebhookMeta } from './ping-webhook.types.ts';
import { sendNow } from './send-now.ts';
import { secretsOf, webhookNotFound } from './webhook.ts';

/**
 * POST /api/webhooks/{id}/ping
 * (docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage).
 */
export const pingWebhook = keyedProcedure
  .meta(pingWebhookMeta)
  .input(PingWebhookInput)
  .output(PingWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    const webhook = await findWebhook(ctx.db, input.id);
    if (!webhook) throw webhookNotFound(input.id);
    const { id, body } = pingMessage(webhook.id);
    const at = new Date();
    const sent = await sendNow(
      ctx,
      webhook.url,
      body,
      signedHeaders(signingSecrets(secretsOf(webhook), at), id, body, at),
    );
    return { success: true as const, ping: { messageId: id, ...sent, at: at.toISOString() } };
  });
