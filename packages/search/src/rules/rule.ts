import type { Bits } from '../bitmap.ts';
import type { Coded } from '../coded.ts';
import type { SearchContext } from '../context.ts';
import { codeTypos, KEY_EXACT, KEY_NONE, score } from '../ranking.ts';

/*
 * The ranking rules' one interface (as Meilisearch's milli `search/new/` shapes them): a rule
 * takes a bucket — documents that every rule before it ranks alike — and yields its own
 * buckets of it, best first; bucket-sort.ts walks them depth first until a page is full. The
 * rules, in order: words (every word must match), typo, exactness (the whole query as a key),
 * attribute (name, tag, description; the word itself before a synonym), then sort (by id).
 *
 * A bucket is described by parts, not made: the matches are sets per match code (matching.ts)
 * and per key tier (exactness.ts), so a part is a (code, tier) pair and a rule only regroups
 * parts. Only the last rule makes a bucket's set (the parts' sets OR-ed, AND-ed with a tier or
 * AND NOT every tier), and only for the buckets a page reaches.
 */

/** Documents of one match code (matching.ts) in one key tier; tier ANY_TIER: whatever their tier (typos). */
export interface Part {
  code: number;
  tier: number;
}

export const ANY_TIER = -1;

/** The key tiers of a search: at[t] the matches whose best tier is t (1–4, disjoint), any their union. */
export interface Tiers {
  at: (Bits | undefined)[];
  any: Bits | undefined;
}

export interface Bucket {
  parts: Part[];
  /** Set by the sort rule: one document. */
  doc?: number;
}

/** What every rule may read: the matches, the key tiers, and the page being filled. */
export interface Ranking {
  cx: SearchContext;
  matched: Coded;
  tiers: Tiers;
  desc: boolean;
  /** Hits the page still needs. */
  need(): number;
  /** The cursor: its score and id (a bucket of that score starts after the id). */
  after: { score: number; id: string } | undefined;
  asOf: number;
}

export interface RankingRule {
  readonly name: string;
  /** The buckets of `bucket` by this rule, best first (worst first when the order is ascending). */
  buckets(r: Ranking, bucket: Bucket): Iterable<Bucket>;
}

/** The score of a part (ranking.ts): its documents' `match.score`. */
export const scoreOf = (p: Part): number => score(p.code, p.tier === ANY_TIER ? KEY_NONE : p.tier);

/** Every part of a search's matches: each code, in each tier that has documents (typos: any tier). */
export function partsOf(matched: Coded, tiers: Tiers): Part[] {
  const parts: Part[] = [];
  for (const code of matched.codes) {
    if (codeTypos(code) > 0) parts.push({ code, tier: ANY_TIER });
    else
      for (let tier = KEY_NONE; tier <= KEY_EXACT; tier++)
        if (tier === KEY_NONE || tiers.at[tier]) parts.push({ code, tier });
  }
  return parts;
}

/** Groups parts by a key, best (highest key) first, or worst first when ascending. */
export function groupBy(parts: Part[], key: (p: Part) => number, desc: boolean): Bucket[] {
  const keys = [...new Set(parts.map(key))].sort((a, b) => (desc ? b - a : a - b));
  return keys.map((k) => ({ parts: parts.filter((p) => key(p) === k) }));
}

/** The documents of a bucket's parts, as one set. */
export function bucketSet(r: Ranking, bucket: Bucket): Bits {
  const { cx, matched, tiers } = r;
  const out = cx.bits.take();
  for (const { code, tier } of bucket.parts) {
    const layer = matched.at[code]!;
    if (tier === ANY_TIER || (tier === KEY_NONE && !tiers.any)) out.or(layer);
    else if (tier > KEY_NONE) layer.andInto(tiers.at[tier]!, out);
    else {
      const rest = cx.bits.take();
      rest.or(layer);
      rest.andNot(tiers.any!);
      out.or(rest);
    }
  }
  return out;
}
