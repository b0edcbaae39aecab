import { actorOf } from '../domain/actor.ts';
import { unmergeTag as unmerge } from '../services/tag-curation.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { UnmergeTagInput, UnmergeTagOutput, unmergeTagMeta } from './unmerge-tag.types.ts';

export const unmergeTag = keyedProcedure
  .meta(unmergeTagMeta)
  .input(UnmergeTagInput)
  .output(UnmergeTagOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const result = await inTransaction(ctx, (trx) => unmerge(trx, input.slug, actor));
    return { success: true as const, ...result };
  });
