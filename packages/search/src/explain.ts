import type { Matched } from './matching.ts';
import { codeClass, codeSynonym, codeTypos, KEY_EXACT, KEY_EXACT_SYNONYM, KEY_PREFIX } from './ranking.ts';
import { coverageShare } from './rules/coverage.ts';
import { docStanding } from './rules/standing.ts';
import type { Store } from './store.ts';
import type { RuleValues } from './types.ts';

/**
 * What each ranking rule saw of a hit (`explain=1`, docs/search.md#explain): the values the
 * rules of rules/ order by, in their order, read back from the hit's match code, key tier and
 * the store's columns.
 */
export function explainHit(ix: Store, m: Matched, d: number, code: number, tier: number): RuleValues {
  const cls = codeClass(code);
  return {
    words: m.words.length,
    typo: codeTypos(code),
    proximity:
      m.words.length > 1 && (tier === KEY_EXACT || tier === KEY_PREFIX || tier === KEY_EXACT_SYNONYM) ? 1 : 0,
    attribute: codeTypos(code) === 0 && codeSynonym(code) ? cls - 0.5 : cls,
    exactness: tier,
    coverage: Math.round(coverageShare(m.terms.length, ix.brevity[d]!) * 100) / 100,
    standing: docStanding(ix, d),
  };
}
