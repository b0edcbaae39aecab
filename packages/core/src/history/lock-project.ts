import { LOCK_FIELDS } from '../schemas/project.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { actorOf } from './actor.ts';
import { LockProjectInput, LockProjectOutput, lockProjectMeta } from './lock-project.types.ts';
import { writeLock } from './write-lock.ts';

export const lockProject = keyedProcedure
  .meta(lockProjectMeta)
  .input(LockProjectInput)
  .output(LockProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const fields = input.fields === '*' ? LOCK_FIELDS : input.fields;
    const { project, revision } = await inTransaction(ctx.db, (trx) =>
      writeLock(trx, input.slug, { fields, reason: input.reason ?? null }, actor),
    );
    return { success: true as const, data: project, revision };
  });
