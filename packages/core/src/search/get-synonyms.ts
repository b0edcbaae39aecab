import { readSynonyms } from '@directory/db';
import { newerVersion } from '../read-model/build.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { GetSynonymsInput, getSynonymsMeta, SynonymsOutput } from './synonyms.types.ts';

export const getSynonyms = publicProcedure
  .meta(getSynonymsMeta)
  .input(GetSynonymsInput)
  .output(SynonymsOutput)
  .query(async ({ ctx }) => {
    let synonyms = await readSynonyms(readDbOf(ctx));
    // the sets this process replaced, when the standby has not replayed them yet (read-your-writes,
    // docs/operating.md#read-your-writes)
    const known = ctx.readModel?.synonymsVersion ?? '';
    if (known !== '' && newerVersion(known, synonyms.version)) synonyms = await readSynonyms(ctx.db);
    return { success: true as const, sets: synonyms.sets };
  });
