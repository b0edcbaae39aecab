import { actorOf } from '../domain/actor.ts';
import { leaseLostDetail } from '../domain/task-transitions.ts';
import { AppError } from '../errors.ts';
import { completeTaskWithProject } from '../services/complete-task.ts';
import { keyedProcedure } from '../trpc.ts';
import { CompleteTaskInput, CompleteTaskOutput, completeTaskMeta } from './complete-task.types.ts';

export const completeTask = keyedProcedure
  .meta(completeTaskMeta)
  .input(CompleteTaskInput)
  .output(CompleteTaskOutput)
  .mutation(async ({ ctx, input }) => {
    const started = performance.now();
    const outcome = await completeTaskWithProject(ctx, {
      id: input.id,
      explorationData: input.explorationData,
      leaseToken: input.leaseToken,
      actor: actorOf(ctx),
    });
    if ('lost' in outcome) {
      ctx.count?.('fenced', 1);
      throw new AppError('CONFLICT', [leaseLostDetail(outcome.lost, input.leaseToken ?? '')]);
    }
    if ('problems' in outcome) throw new AppError('INVALID_EXPLORATION_DATA', outcome.problems);
    return {
      success: true as const,
      taskId: input.id,
      projectId: outcome.projectId,
      slug: outcome.slug,
      action: outcome.action,
      ...(outcome.kept && { kept: outcome.kept }),
      ...(outcome.warnings && { warnings: outcome.warnings }),
      duration: Math.round(performance.now() - started),
    };
  });
