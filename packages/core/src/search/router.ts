import { router } from '../trpc.ts';
import { getPins } from './get-pins.ts';
import { getSynonyms } from './get-synonyms.ts';
import { replacePins } from './replace-pins.ts';
import { replaceSynonyms } from './replace-synonyms.ts';

export const searchRouter = router({
  synonyms: getSynonyms,
  replaceSynonyms,
  pins: getPins,
  replacePins,
});
