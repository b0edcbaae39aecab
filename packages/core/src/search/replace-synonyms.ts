import { CHANGES_CHANNEL, writeSynonyms } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { ReplaceSynonymsInput, replaceSynonymsMeta, SynonymsOutput } from './synonyms.types.ts';

/** Stored whole; the notification wakes every process's read model, which re-reads them. */
export const replaceSynonyms = keyedProcedure
  .meta(replaceSynonymsMeta)
  .input(ReplaceSynonymsInput)
  .output(SynonymsOutput)
  .mutation(async ({ ctx, input }) => {
    const sets = input.sets.map((set) => set.map((term) => term.trim()));
    const stored = await writeSynonyms(ctx.db, sets, CHANGES_CHANNEL);
    await ctx.readModel?.refreshSynonyms();
    return { success: true as const, sets: stored.sets };
  });
