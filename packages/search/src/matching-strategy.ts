import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import type { MatchingStrategy } from './types.ts';
import type { Word } from './word.ts';

/*
 * The matching strategy (docs/search.md#matching-strategy), when no project matches every
 * word of a query (the common case, where some do, never comes here):
 *   - `last` (the default): the words that match no project at all are left out first (they
 *     could never match: a word the directory does not have), then the last word, then the one
 *     before, until the words kept match a project;
 *   - `frequency`: the words matching the most projects are left out first;
 *   - `all`: nothing is left out (the answer is empty).
 * At least one word is kept; the words kept keep their order.
 */

/** The words to keep (empty: none of them matches a project). */
export function keptWords(
  cx: SearchContext,
  words: Word[],
  strategy: MatchingStrategy,
  matchesOf: (w: Word) => Bits,
): Word[] {
  if (strategy === 'all') return words;
  // each word alone: how many projects it matches
  const sets = words.map(matchesOf);
  const counts = sets.map((s) => s.count());
  let kept = words.filter((_, i) => counts[i]! > 0);
  if (kept.length === 0) return [];
  const together = (ws: Word[]) => {
    const b = cx.bits.take();
    b.or(sets[words.indexOf(ws[0]!)]!);
    for (const w of ws.slice(1)) b.and(sets[words.indexOf(w)]!);
    return b.count() > 0;
  };
  while (kept.length > 1 && !together(kept)) {
    if (strategy === 'last') kept = kept.slice(0, -1);
    else {
      // the most frequent goes first (of two as frequent, the later)
      let most = 0;
      for (let i = 1; i < kept.length; i++)
        if (counts[words.indexOf(kept[i]!)]! >= counts[words.indexOf(kept[most]!)]!) most = i;
      kept = kept.filter((_, i) => i !== most);
    }
  }
  return kept;
}
