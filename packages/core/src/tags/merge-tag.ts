import { actorOf } from '../domain/actor.ts';
import { mergeTag as merge } from '../services/tag-curation.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { MergeTagInput, MergeTagOutput, mergeTagMeta } from './merge-tag.types.ts';

export const mergeTag = keyedProcedure
  .meta(mergeTagMeta)
  .input(MergeTagInput)
  .output(MergeTagOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const result = await inTransaction(ctx, (trx) => merge(trx, input.slug, input.into, actor));
    return { success: true as const, ...result };
  });
