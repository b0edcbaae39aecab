import { extendLease } from '@directory/db';
import { toTask } from '../schemas/task.ts';
import { leaseLost } from '../services/lease-lost.ts';
import { keyedProcedure } from '../trpc.ts';
import { HeartbeatTaskInput, HeartbeatTaskOutput, heartbeatTaskMeta } from './heartbeat-task.types.ts';

export const heartbeatTask = keyedProcedure
  .meta(heartbeatTaskMeta)
  .input(HeartbeatTaskInput)
  .output(HeartbeatTaskOutput)
  .mutation(async ({ ctx, input }) => {
    const row = await extendLease(ctx.db, input.id, input.leaseToken, input.leaseSeconds);
    if (!row) throw await leaseLost(ctx, input.id, input.leaseToken);
    ctx.count?.('heartbeat', 1);
    return { success: true as const, task: toTask(row) };
  });
