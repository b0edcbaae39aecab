import { findWebhook } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { GetWebhookInput, GetWebhookOutput, getWebhookMeta } from './get-webhook.types.ts';
import { toWebhook, webhookNotFound } from './webhook.ts';

export const getWebhook = keyedProcedure
  .meta(getWebhookMeta)
  .input(GetWebhookInput)
  .output(GetWebhookOutput)
  .query(async ({ ctx, input }) => {
    const row = await findWebhook(ctx.db, input.id);
    if (!row) throw webhookNotFound(input.id);
    return { success: true as const, webhook: toWebhook(row) };
  });
