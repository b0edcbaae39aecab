import { router } from '../trpc.ts';
import { getSynonyms } from './get-synonyms.ts';
import { replaceSynonyms } from './replace-synonyms.ts';

export const searchRouter = router({
  synonyms: getSynonyms,
  replaceSynonyms,
});
