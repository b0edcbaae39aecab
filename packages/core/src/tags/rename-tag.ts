import { renameTag as rename } from '../services/tag-curation.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { RenameTagInput, RenameTagOutput, renameTagMeta } from './rename-tag.types.ts';

export const renameTag = keyedProcedure
  .meta(renameTagMeta)
  .input(RenameTagInput)
  .output(RenameTagOutput)
  .mutation(async ({ ctx, input }) => {
    const tag = await inTransaction(ctx, (trx) => rename(trx, input.slug, input));
    return { success: true as const, tag };
  });
