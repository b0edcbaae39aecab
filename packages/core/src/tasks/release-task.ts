import { releaseLease } from '@directory/db';
import { toTask } from '../schemas/task.ts';
import { leaseLost } from '../services/lease-lost.ts';
import { notifyClaimable } from '../services/queue-signals.ts';
import { keyedProcedure } from '../trpc.ts';
import { ReleaseTaskInput, ReleaseTaskOutput, releaseTaskMeta } from './release-task.types.ts';

export const releaseTask = keyedProcedure
  .meta(releaseTaskMeta)
  .input(ReleaseTaskInput)
  .output(ReleaseTaskOutput)
  .mutation(async ({ ctx, input }) => {
    const row = await releaseLease(ctx.db, input.id, input.leaseToken, {
      errorMessage: input.errorMessage,
      retryAfterSeconds: input.retryAfterSeconds,
    });
    if (!row) throw await leaseLost(ctx, input.id, input.leaseToken);
    ctx.count?.('released', 1);
    if (input.retryAfterSeconds === 0) notifyClaimable();
    return { success: true as const, task: toTask(row) };
  });
