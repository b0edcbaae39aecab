import { findAttemptForRedelivery, recordRedelivery } from '@directory/db';
import { messageId, webhookPayload } from '../domain/webhook-delivery.ts';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  RedeliverWebhookInput,
  RedeliverWebhookOutput,
  redeliverWebhookMeta,
} from './redeliver-webhook.types.ts';
import { sendNow } from './send-now.ts';
import { secretsOf, toDelivery, visibleWebhook } from './webhook.ts';

/**
 * POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver
 * (docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage).
 */
export const redeliverWebhook = keyedProcedure
  .meta(redeliverWebhookMeta)
  .input(RedeliverWebhookInput)
  .output(RedeliverWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    const webhook = await visibleWebhook(ctx, input.id);
    const found = await findAttemptForRedelivery(ctx.db, input.id, input.deliveryId);
    if (!found)
      throw new AppError('NOT_FOUND', [`Delivery "${input.deliveryId}" of webhook "${input.id}" not found`]);
    if (found.type === 'ping')
      throw new AppError('CONFLICT', [
        `deliveryId: Delivery "${input.deliveryId}" is a ping, which is not redelivered: send a new ping instead`,
      ]);
    const change = found.change;
    if (!change)
      throw new AppError('GONE', [
        `deliveryId: The change of delivery "${input.deliveryId}" is no longer kept (CHANGES_RETENTION_DAYS)`,
      ]);
    const sent = await sendNow(
      ctx,
      { url: webhook.url, secrets: secretsOf(webhook) },
      { id: messageId(change.id), body: JSON.stringify(webhookPayload(change)) },
    );
    const attempt = await recordRedelivery(ctx.db, {
      webhookId: input.id,
      deliveryId: found.deliveryId,
      changeId: change.id,
      event: change.type,
      ...sent,
    });
    return { success: true as const, delivery: toDelivery(input.id, attempt) };
  });
