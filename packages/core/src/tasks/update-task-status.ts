import { findTaskById, updateTaskIfStatus } from '@directory/db';
import { conflictDetail, mayHoldLease, patchTransition } from '../domain/task-transitions.ts';
import { AppError } from '../errors.ts';
import { toTask } from '../schemas/task.ts';
import { leaseLost } from '../services/lease-lost.ts';
import { notifyClaimable } from '../services/queue-signals.ts';
import { keyedProcedure } from '../trpc.ts';
import { taskNotFound } from './get-task.ts';
import {
  UpdateTaskStatusInput,
  UpdateTaskStatusOutput,
  updateTaskStatusMeta,
} from './update-task-status.types.ts';

// Only a task whose status keeps changing under it runs out of attempts.
const MAX_ATTEMPTS = 5;

export const updateTaskStatus = keyedProcedure
  .meta(updateTaskStatusMeta)
  .input(UpdateTaskStatusInput)
  .output(UpdateTaskStatusOutput)
  .mutation(async ({ ctx, input }) => {
    const { id, status, explorationData, explorationSummary, errorMessage, leaseToken } = input;
    const guard = leaseToken === undefined ? undefined : { leaseToken };
    // Read the status, then update only if it is still that status. A writer that lost a race
    // reads again and is judged against the status the winner left (two claims: one 409).
    for (let attempt = 1; ; attempt++) {
      const current = await findTaskById(ctx.db, id);
      if (!current) throw taskNotFound(id);
      // A token that is not the task's lease is refused whatever the move (the guarded update
      // below is what decides; this only answers early when it already cannot hold).
      if (leaseToken !== undefined && !mayHoldLease(current, leaseToken))
        throw await leaseLost(ctx, id, leaseToken);
      const change = patchTransition(current.status, status);
      if (!change) throw new AppError('CONFLICT', [conflictDetail(current.status, status)]);
      const updated = await updateTaskIfStatus(
        ctx.db,
        id,
        current.status,
        {
          ...change,
          explorationData,
          explorationSummary,
          errorMessage,
        },
        guard,
      );
      if (updated) {
        if (status === 'PENDING') notifyClaimable();
        return { success: true as const, task: toTask(updated) };
      }
      // a fenced change that lost its lease meanwhile (expired, reaped) is refused, not retried
      if (guard) throw await leaseLost(ctx, id, guard.leaseToken);
      if (attempt === MAX_ATTEMPTS) throw new AppError('CONFLICT', [conflictDetail(current.status, status)]);
    }
  });
