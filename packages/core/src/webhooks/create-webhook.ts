import { randomBytes } from 'node:crypto';
import { insertWebhook } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { pollingFeed } from '../changes/feed.ts';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { CreateWebhookInput, CreateWebhookOutput, createWebhookMeta } from './create-webhook.types.ts';
import { privateTargetProblem } from './targets.ts';
import { toWebhook } from './webhook.ts';

export const createWebhook = keyedProcedure
  .meta(createWebhookMeta)
  .input(CreateWebhookInput)
  .output(CreateWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    if (!(ctx.feed ?? pollingFeed).allowPrivateTargets) {
      const problem = await privateTargetProblem(input.url);
      if (problem) throw new AppError('VALIDATION', [`url: ${problem}`]);
    }
    // Standard Webhooks secrets: "whsec_" and base64 of 24-64 random bytes.
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const row = await insertWebhook(ctx.db, {
      id: createId(),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret,
    });
    return { success: true as const, webhook: toWebhook(row), secret };
  });
