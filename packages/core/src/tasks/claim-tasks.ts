import { claimQueuedTasks } from '@directory/db';
import { toLeasedTask } from '../schemas/task.ts';
import { waitForClaimable } from '../services/queue-signals.ts';
import { keyedProcedure } from '../trpc.ts';
import { ClaimTasksInput, ClaimTasksOutput, claimTasksMeta } from './claim-tasks.types.ts';

// How often a waiting claim looks again for tasks made claimable by other processes (tasks
// made claimable in this process wake it at once).
const POLL_MS = 500;

export const claimTasks = keyedProcedure
  .meta(claimTasksMeta)
  .input(ClaimTasksInput)
  .output(ClaimTasksOutput)
  .mutation(async ({ ctx, input }) => {
    const deadline = Date.now() + input.wait * 1000;
    for (;;) {
      // Each attempt is one statement on a connection taken from the pool and given back at
      // once; between attempts the request holds only a timer.
      const rows = await claimQueuedTasks(ctx.db, {
        limit: input.limit,
        leaseSeconds: input.leaseSeconds,
        worker: input.worker ?? null,
      });
      const left = deadline - Date.now();
      if (rows.length > 0 || left <= 0 || ctx.signal?.aborted) {
        if (rows.length > 0) ctx.count?.('claimed', rows.length);
        return { success: true as const, tasks: rows.map(toLeasedTask) };
      }
      await waitForClaimable(Math.min(POLL_MS, left), ctx.signal);
    }
  });
