import { actorOf } from '../domain/actor.ts';
import { LOCK_FIELDS } from '../schemas/project.ts';
import { writeLock } from '../services/write-lock.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { LockProjectInput, LockProjectOutput, lockProjectMeta } from './lock-project.types.ts';

export const lockProject = keyedProcedure
  .meta(lockProjectMeta)
  .input(LockProjectInput)
  .output(LockProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const fields = input.fields === '*' ? LOCK_FIELDS : input.fields;
    const { project, revision } = await inTransaction(ctx, (trx) =>
      writeLock(trx, input.slug, { fields, reason: input.reason ?? null }, actor),
    );
    return { success: true as const, data: project, revision };
  });
