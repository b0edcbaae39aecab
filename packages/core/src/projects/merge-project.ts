import { actorOf } from '../domain/actor.ts';
import { toProject } from '../schemas/project.ts';
import { mergeProject as merge } from '../services/merge.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { MergeProjectInput, MergeProjectOutput, mergeProjectMeta } from './merge-project.types.ts';

export const mergeProject = keyedProcedure
  .meta(mergeProjectMeta)
  .input(MergeProjectInput)
  .output(MergeProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const { project, merged } = await inTransaction(ctx, (trx) => merge(trx, input.slug, input.into, actor));
    return { success: true as const, data: { project: toProject(project), merged } };
  });
