import { setWebhookEnabled, updateWebhookTarget } from '@directory/db';
import { privateTargetProblem } from '../domain/webhook-targets.ts';
import { AppError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { UpdateWebhookInput, UpdateWebhookOutput, updateWebhookMeta } from './update-webhook.types.ts';
import { toWebhook, visibleWebhook, webhookNotFound } from './webhook.ts';

/**
 * PATCH /api/webhooks/{id}: enable or disable, change the url or the events — checked as at creation
 * (docs/changes-and-webhooks.md#changing-a-webhook).
 */
export const updateWebhook = keyedProcedure
  .meta(updateWebhookMeta)
  .input(UpdateWebhookInput)
  .output(UpdateWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    if (input.enabled === undefined && input.url === undefined && input.events === undefined)
      throw new AppError('VALIDATION', ['Give at least one of enabled, url and events']);
    if (input.url !== undefined && !ctx.allowPrivateWebhookTargets) {
      const problem = await privateTargetProblem(input.url);
      if (problem) throw new AppError('VALIDATION', [`url: ${problem}`]);
    }
    // one transaction: a PATCH is done whole or not at all
    const row = await inTransaction(ctx, async (trx) => {
      await visibleWebhook(ctx, input.id, trx);
      if (input.url !== undefined || input.events !== undefined) {
        const row = await updateWebhookTarget(trx, input.id, { url: input.url, events: input.events });
        if (!row) throw webhookNotFound(input.id);
      }
      if (input.enabled !== undefined && !(await setWebhookEnabled(trx, input.id, input.enabled)))
        throw webhookNotFound(input.id);
      return visibleWebhook(ctx, input.id, trx);
    });
    return { success: true as const, webhook: toWebhook(row) };
  });
