import { listAttempts } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import {
  ListWebhookDeliveriesInput,
  ListWebhookDeliveriesOutput,
  listWebhookDeliveriesMeta,
} from './list-webhook-deliveries.types.ts';
import { toDelivery, visibleWebhook } from './webhook.ts';

export const listWebhookDeliveries = keyedProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ListWebhookDeliveriesInput)
  .output(ListWebhookDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    await visibleWebhook(ctx, input.id);
    const attempts = await listAttempts(ctx.db, input.id, input.limit);
    return {
      success: true as const,
      deliveries: attempts.map((a) => toDelivery(input.id, a)),
    };
  });
