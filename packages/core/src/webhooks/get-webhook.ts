import { keyedProcedure } from '../trpc.ts';
import { GetWebhookInput, GetWebhookOutput, getWebhookMeta } from './get-webhook.types.ts';
import { toWebhook, visibleWebhook } from './webhook.ts';

export const getWebhook = keyedProcedure
  .meta(getWebhookMeta)
  .input(GetWebhookInput)
  .output(GetWebhookOutput)
  .query(async ({ ctx, input }) => {
    const row = await visibleWebhook(ctx, input.id);
    return { success: true as const, webhook: toWebhook(row) };
  });
