import { lockTaskById, lockTaskWithLease, type TaskRow, updateTaskIfStatus } from '@directory/db';
import { COMPLETABLE, completeChange, conflictDetail, failChange } from '../domain/task-transitions.ts';
import { AppError, issueDetails } from '../errors.ts';
import { type LockField, ProjectInput, repeatedLinkUrlDetail } from '../schemas/project.ts';
import { taskNotFound } from '../tasks/get-task.ts';
import { inTransaction, type TransactionTarget, type WrittenRows } from '../transaction.ts';
import { upsertProject } from './upsert.ts';

export type CompleteOutcome =
  | {
      projectId: string;
      slug: string;
      action: 'created' | 'updated';
      kept: LockField[] | undefined;
      /** docs/curation.md#updates-that-may-be-wrong */
      warnings: string[] | undefined;
    }
  | { problems: string[] }
  | { lost: TaskRow };

/** The violations of explorationData as a ProjectInput, or the parsed input. */
function parseExplorationData(data: unknown): { input: ProjectInput } | { problems: string[] } {
  const parsed = ProjectInput.safeParse(data);
  if (!parsed.success) return { problems: issueDetails(parsed.error.issues, ['explorationData']) };
  const repeated = repeatedLinkUrlDetail(parsed.data, 'explorationData.');
  if (repeated) return { problems: [repeated] };
  return { input: parsed.data };
}

/**
 * Endpoint 8's write: the task COMPLETED with its project upserted, in one transaction; or FAILED
 * with the problems of explorationData; or, with a token that is not the live lease, nothing
 * (`lost`). The task row stays locked until the project write and the task change commit
 * together. An unexpected failure commits nothing and records the failure on the task if it can.
 */
export async function completeTaskWithProject(
  target: TransactionTarget,
  request: { id: string; explorationData: unknown; leaseToken: string | undefined; actor: string | null },
): Promise<CompleteOutcome> {
  const guard = request.leaseToken === undefined ? undefined : { leaseToken: request.leaseToken };
  try {
    const outcome = await inTransaction(
      target,
      async (trx): Promise<CompleteOutcome & { rows?: WrittenRows }> => {
        // With a token, the lease is judged on the locked row: a reaper or a claimer that
        // comes later waits for this transaction, one that came earlier has changed the row.
        const task = guard
          ? await lockTaskWithLease(trx, request.id, guard.leaseToken)
          : await lockTaskById(trx, request.id);
        if (!task) throw taskNotFound(request.id);
        if ('lease_live' in task && !task.lease_live) return { lost: task };
        if (!COMPLETABLE.includes(task.status)) {
          throw new AppError('CONFLICT', [conflictDetail(task.status, 'COMPLETED')]);
        }
        const parsed = parseExplorationData(request.explorationData);
        if ('problems' in parsed) {
          await updateTaskIfStatus(trx, task.id, task.status, failChange(parsed.problems.join('; ')), guard);
          return parsed;
        }
        const {
          result: { id: projectId, slug, action, kept, warnings },
          rows,
        } = await upsertProject(trx, parsed.input, {
          via: 'complete',
          actor: request.actor,
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
        return { projectId, slug, action, kept, warnings, rows };
      },
    );
    // committed: the read model of this process gets the project as written (transaction.ts)
    const { rows, ...done } = outcome;
    if (rows) target.writes?.wrote(rows);
    return done;
  } catch (err) {
    if (!(err instanceof AppError)) {
      // Nothing of the attempt was committed; record the failure on the task if it can be.
      await updateTaskIfStatus(
        target.db,
        request.id,
        COMPLETABLE,
        failChange('Internal error while completing the task'),
        guard,
      ).catch(() => undefined);
    }
    throw err;
  }
}
