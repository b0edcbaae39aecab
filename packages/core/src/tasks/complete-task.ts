import { lockTaskById, lockTaskWithLease, type TaskRow, updateTaskIfStatus } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import {
  COMPLETABLE,
  completeChange,
  conflictDetail,
  failChange,
  leaseLostDetail,
} from '../domain/task-transitions.ts';
import { AppError, issueDetails } from '../errors.ts';
import { type LockField, ProjectInput, repeatedLinkUrlDetail } from '../schemas/project.ts';
import { upsertProject } from '../services/upsert.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { CompleteTaskInput, CompleteTaskOutput, completeTaskMeta } from './complete-task.types.ts';
import { taskNotFound } from './get-task.ts';

/** The violations of explorationData as a ProjectInput, or the parsed input. */
function parseExplorationData(data: unknown): { input: ProjectInput } | { problems: string[] } {
  const parsed = ProjectInput.safeParse(data);
  if (!parsed.success) return { problems: issueDetails(parsed.error.issues, ['explorationData']) };
  const repeated = repeatedLinkUrlDetail(parsed.data, 'explorationData.');
  if (repeated) return { problems: [repeated] };
  return { input: parsed.data };
}

export const completeTask = keyedProcedure
  .meta(completeTaskMeta)
  .input(CompleteTaskInput)
  .output(CompleteTaskOutput)
  .mutation(async ({ ctx, input }) => {
    const started = performance.now();
    const actor = actorOf(ctx);
    const { leaseToken } = input;
    const guard = leaseToken === undefined ? undefined : { leaseToken };
    let outcome:
      | { projectId: string; slug: string; action: 'created' | 'updated'; kept: LockField[] | undefined }
      | { problems: string[] }
      | { lost: TaskRow };
    try {
      // The task row stays locked until the project write and the task change commit together.
      outcome = await inTransaction(ctx.db, async (trx) => {
        // With a token, the lease is judged on the locked row: a reaper or a claimer that
        // comes later waits for this transaction, one that came earlier has changed the row.
        const task = guard
          ? await lockTaskWithLease(trx, input.id, guard.leaseToken)
          : await lockTaskById(trx, input.id);
        if (!task) throw taskNotFound(input.id);
        if ('lease_live' in task && !task.lease_live) return { lost: task };
        if (!COMPLETABLE.includes(task.status)) {
          throw new AppError('CONFLICT', [conflictDetail(task.status, 'COMPLETED')]);
        }
        const parsed = parseExplorationData(input.explorationData);
        if ('problems' in parsed) {
          await updateTaskIfStatus(trx, task.id, task.status, failChange(parsed.problems.join('; ')), guard);
          return parsed;
        }
        const {
          id: projectId,
          slug,
          action,
          kept,
        } = await upsertProject(trx, parsed.input, {
          via: 'complete',
          actor,
          taskId: task.id,
        });
        const done = await updateTaskIfStatus(
          trx,
          task.id,
          task.status,
          completeChange(projectId, parsed.input),
          guard,
        );
        // cannot happen while the row is locked; if it did, the project must not stay without its task
        if (!done) throw new Error('The locked task changed under its completion');
        return { projectId, slug, action, kept };
      });
    } catch (err) {
      if (!(err instanceof AppError)) {
        // Nothing of the attempt was committed; record the failure on the task if it can be.
        await updateTaskIfStatus(
          ctx.db,
          input.id,
          COMPLETABLE,
          failChange('Internal error while completing the task'),
          guard,
        ).catch(() => undefined);
      }
      throw err;
    }
    if ('lost' in outcome) {
      ctx.count?.('fenced', 1);
      throw new AppError('CONFLICT', [leaseLostDetail(outcome.lost, leaseToken ?? '')]);
    }
    if ('problems' in outcome) throw new AppError('INVALID_EXPLORATION_DATA', outcome.problems);
    return {
      success: true as const,
      taskId: input.id,
      projectId: outcome.projectId,
      slug: outcome.slug,
      action: outcome.action,
      ...(outcome.kept && { kept: outcome.kept }),
      duration: Math.round(performance.now() - started),
    };
  });
