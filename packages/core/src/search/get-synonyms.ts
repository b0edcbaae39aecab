import { readSynonyms } from '@directory/db';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { GetSynonymsInput, getSynonymsMeta, SynonymsOutput } from './synonyms.types.ts';

export const getSynonyms = publicProcedure
  .meta(getSynonymsMeta)
  .input(GetSynonymsInput)
  .output(SynonymsOutput)
  .query(async ({ ctx }) => {
    const { sets } = await readSynonyms(readDbOf(ctx));
    return { success: true as const, sets };
  });
