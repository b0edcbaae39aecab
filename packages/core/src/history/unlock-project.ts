import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { actorOf } from './actor.ts';
import { UnlockProjectInput, UnlockProjectOutput, unlockProjectMeta } from './unlock-project.types.ts';
import { writeLock } from './write-lock.ts';

export const unlockProject = keyedProcedure
  .meta(unlockProjectMeta)
  .input(UnlockProjectInput)
  .output(UnlockProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const { project, revision } = await inTransaction(ctx.db, (trx) =>
      writeLock(trx, input.slug, null, actor),
    );
    return { success: true as const, data: project, revision };
  });
