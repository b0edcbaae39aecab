import { setWebhookEnabled } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { UpdateWebhookInput, UpdateWebhookOutput, updateWebhookMeta } from './update-webhook.types.ts';
import { toWebhook, webhookNotFound } from './webhook.ts';

/** PATCH /api/webhooks/{id}: enable or disable. */
export const updateWebhook = keyedProcedure
  .meta(updateWebhookMeta)
  .input(UpdateWebhookInput)
  .output(UpdateWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    const row = await setWebhookEnabled(ctx.db, input.id, input.enabled);
    if (!row) throw webhookNotFound(input.id);
    return { success: true as const, webhook: toWebhook(row) };
  });
