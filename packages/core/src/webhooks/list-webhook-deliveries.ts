import { findWebhook, listAttempts } from '@directory/db';
import { messageId } from '../domain/webhook-delivery.ts';
import { iso } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  ListWebhookDeliveriesInput,
  ListWebhookDeliveriesOutput,
  listWebhookDeliveriesMeta,
} from './list-webhook-deliveries.types.ts';
import { webhookNotFound } from './webhook.ts';

export const listWebhookDeliveries = keyedProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ListWebhookDeliveriesInput)
  .output(ListWebhookDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    if (!(await findWebhook(ctx.db, input.id))) throw webhookNotFound(input.id);
    const attempts = await listAttempts(ctx.db, input.id, input.limit);
    return {
      success: true as const,
      deliveries: attempts.map((a) => ({
        id: a.id,
        webhookId: input.id,
        messageId: messageId(a.changeId),
        event: a.event as 'project.created',
        statusCode: a.statusCode,
        success: a.success,
        error: a.error,
        durationMs: a.durationMs,
        at: iso(a.at),
      })),
    };
  });
