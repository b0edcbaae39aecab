import { deleteWebhookById } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { DeleteWebhookInput, DeleteWebhookOutput, deleteWebhookMeta } from './delete-webhook.types.ts';
import { visibleWebhook, webhookNotFound } from './webhook.ts';

export const deleteWebhook = keyedProcedure
  .meta(deleteWebhookMeta)
  .input(DeleteWebhookInput)
  .output(DeleteWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    await visibleWebhook(ctx, input.id);
    if (!(await deleteWebhookById(ctx.db, input.id))) throw webhookNotFound(input.id);
    return { success: true as const, message: `Webhook "${input.id}" deleted successfully` };
  });
