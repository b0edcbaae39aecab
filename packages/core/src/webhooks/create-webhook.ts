import { insertWebhook } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { newWebhookSecret } from '../domain/webhook-delivery.ts';
import { privateTargetProblem } from '../domain/webhook-targets.ts';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { CreateWebhookInput, CreateWebhookOutput, createWebhookMeta } from './create-webhook.types.ts';
import { ownerOf, toWebhook, visibleWebhook } from './webhook.ts';

export const createWebhook = keyedProcedure
  .meta(createWebhookMeta)
  .input(CreateWebhookInput)
  .output(CreateWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    if (!ctx.allowPrivateWebhookTargets) {
      const problem = await privateTargetProblem(input.url);
      if (problem) throw new AppError('VALIDATION', [`url: ${problem}`]);
    }
    const secret = newWebhookSecret();
    const row = await insertWebhook(ctx.db, {
      id: createId(),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret,
      owner: ownerOf(ctx.principal),
    });
    return { success: true as const, webhook: toWebhook(await visibleWebhook(ctx, row.id)), secret };
  });
