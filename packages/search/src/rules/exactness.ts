import type { Bits } from '../bitmap.ts';
import type { Coded } from '../coded.ts';
import type { SearchContext } from '../context.ts';
import type { Matched } from '../matching.ts';
import { KEY_EXACT, KEY_EXACT_SYNONYM, KEY_NONE, KEY_PREFIX, KEY_PREFIX_SYNONYM } from '../ranking.ts';
import type { Position } from '../sorted-list.ts';
import { KEYS } from '../store-state.ts';
import { KEY_PREFIX_MAX, keyPrefixCode } from '../terms.ts';
import { ANY_TIER, type Bucket, groupBy, type Ranking, type RankingRule, type Tiers } from './rule.ts';

/**
 * Exactness: the whole query (its words without spaces) equals a key of the document — name,
 * nameEn, slug, full pinyin, initials —, then equals it through a synonym, then starts a key,
 * then starts one through a synonym, then none of these. Only matches without typos are told
 * apart so (ranking.ts); the tiers are sets made once per query (keyTiers).
 */
export const exactness: RankingRule = {
  name: 'exactness',
  buckets(r: Ranking, bucket: Bucket) {
    if (bucket.parts.some((p) => p.tier === ANY_TIER)) return [bucket];
    return groupBy(bucket.parts, (p) => p.tier, r.desc);
  },
};

const ALL_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/**
 * The matches whose key equals or starts with the whole query (its words without spaces, or a
 * synonym of a one-word query), as sets: the keys of every document are kept in key order
 * (store.ts byKey), so the keys equal to the whole are a range found by binary search, its
 * documents' bits set and AND-ed with the matches (the work is the documents that rank there).
 * A whole of up to KEY_PREFIX_MAX code units has the documents of any key starting with it as
 * a posting list (store.ts keyPrefix), AND-ed with the matches a word at a time when dense; a
 * longer one is the range of keys that start with it. No text is read. The prefix list holds
 * the keys equal to the whole too: those documents are in the exact tier, which ranks higher
 * and takes them out of the prefix tier below.
 */
export function keyTiers(cx: SearchContext, m: Pick<Matched, 'words' | 'terms'>, matched: Coded): Tiers {
  const { ix } = cx;
  const at: (Bits | undefined)[] = [];
  const matches = matched.union;
  const wholes: [string, boolean][] = [[m.terms.join(''), false]];
  if (m.words.length === 1) for (const syn of m.words[0]!.synonyms) wholes.push([syn.join(''), true]);
  const byKey = ix.byKey;
  const put = (t: number, b: Bits) => {
    if (b.empty) return;
    if (at[t]) at[t].or(b);
    else at[t] = b;
  };
  for (const [whole, synonym] of wholes) {
    const exact = synonym ? KEY_EXACT_SYNONYM : KEY_EXACT;
    const prefix = synonym ? KEY_PREFIX_SYNONYM : KEY_PREFIX;
    const start = byKey.seek((e) => ix.compareKeyTo(e, whole) < 0);
    const exactEnd = byKey.seek((e) => ix.compareKeyTo(e, whole) <= 0);
    const ranges: [Position, Position, number][] = [[start, exactEnd, exact]];
    // Chinese has no spaces between its words: a name that starts with the characters typed
    // (千问插件) has not the word more than one that ends with them (通义千问), so a query
    // of Chinese characters alone has no prefix tier (docs/search.md#ranking-rules)
    if (ALL_CJK.test(whole)) {
    } else if (whole.length <= KEY_PREFIX_MAX) {
      const id = ix.keyPrefixIds.get(keyPrefixCode(whole, 0, whole.length));
      if (id !== undefined) {
        const b = cx.bits.take();
        ix.keyPrefix.andInto(id, matches, b);
        put(prefix, b);
      }
    } else {
      const end = byKey.seek((e) => ix.compareKeyTo(e, whole) < 0 || ix.keyStartsWith(e, whole));
      ranges.push([exactEnd, end, prefix]);
    }
    for (const [from, to, t] of ranges) {
      if (from.block === to.block && from.offset === to.offset) continue;
      const b = cx.bits.take();
      byKey.between(from, to, (e) => b.add((e / KEYS) | 0));
      b.and(matches);
      put(t, b);
    }
  }
  // each document in its best tier only
  let any: Bits | undefined;
  for (let t = KEY_EXACT; t > KEY_NONE; t--) {
    const b = at[t];
    if (!b) continue;
    if (any) b.andNot(any);
    else any = cx.bits.take();
    any.or(b);
  }
  return { at, any };
}

/** The best key tier of a document. */
export function tierOf(tiers: Tiers, d: number): number {
  for (let t = KEY_EXACT; t > KEY_NONE; t--) if (tiers.at[t]?.has(d)) return t;
  return KEY_NONE;
}
