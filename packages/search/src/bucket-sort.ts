import type { Coded } from './coded.ts';
import type { SearchContext } from './context.ts';
import { bucketScoreOf } from './ranking.ts';
import { attribute } from './rules/attribute.ts';
import { exactness } from './rules/exactness.ts';
import { proximity } from './rules/proximity.ts';
import { type Bucket, partsOf, type Ranking, type RankingRule, scoreOf, type Tiers } from './rules/rule.ts';
import { sort } from './rules/sort.ts';
import { typo } from './rules/typo.ts';
import { words } from './rules/words.ts';
import type { ProjectQuery } from './types.ts';

/** The ranking rules of a relevance page, in order (rules/rule.ts says what a rule is). */
export const RANKING_RULES: readonly RankingRule[] = [words, typo, proximity, exactness, attribute, sort];

/**
 * A relevance page by bucket sort: the matches are one bucket; each rule in turn splits the
 * bucket it is given into its own, best first, and the loop goes depth first into each until
 * the page holds limit + 1 documents — the last rule's buckets are single documents. A bucket
 * whose every score is on the far side of the cursor is passed over before it is split (the
 * scores are a total order over the rules' buckets, ranking.ts), so a later page makes only
 * the buckets from the cursor on.
 */
export function relevancePage(
  cx: SearchContext,
  query: ProjectQuery,
  matched: Coded,
  tiers: Tiers,
): number[] {
  const want = query.limit + 1;
  const desc = query.order === 'desc';
  const out: number[] = [];
  const after = query.after && { score: Number(query.after.key), id: query.after.id };
  const afterBucket = after && bucketScoreOf(after.score);
  const r: Ranking = {
    cx,
    matched,
    tiers,
    desc,
    need: () => want - out.length,
    after,
    asOf: query.asOf ?? Number.POSITIVE_INFINITY,
  };
  // before the cursor: every score of the bucket ranks above the cursor's
  const passed = (bucket: Bucket) =>
    afterBucket !== undefined &&
    bucket.parts.every((p) => (desc ? scoreOf(p) > afterBucket : scoreOf(p) < afterBucket));
  const visit = (bucket: Bucket, rule: number): boolean => {
    if (bucket.doc !== undefined) {
      out.push(bucket.doc);
      return out.length < want;
    }
    if (bucket.parts.length === 0 || passed(bucket)) return true;
    for (const b of RANKING_RULES[rule]!.buckets(r, bucket)) if (!visit(b, rule + 1)) return false;
    return true;
  };
  visit({ parts: partsOf(matched, tiers) }, 0);
  return out;
}
