import { actorOf } from '../domain/actor.ts';
import { writeLock } from '../services/write-lock.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { UnlockProjectInput, UnlockProjectOutput, unlockProjectMeta } from './unlock-project.types.ts';

export const unlockProject = keyedProcedure
  .meta(unlockProjectMeta)
  .input(UnlockProjectInput)
  .output(UnlockProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const { project, revision } = await inTransaction(ctx, (trx) => writeLock(trx, input.slug, null, actor));
    return { success: true as const, data: project, revision };
  });
