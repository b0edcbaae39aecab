import type { Bucket, Ranking, RankingRule } from './rule.ts';

/**
 * Words: the more of the query's words a document has, the better. The matching strategy
 * (matching-strategy.ts, docs/search.md#matching-strategy) decides which words a search keeps —
 * all of them, or fewer when nothing matches all — and every match has every word kept: one
 * bucket.
 */
export const words: RankingRule = {
  name: 'words',
  *buckets(_r: Ranking, bucket: Bucket) {
    yield bucket;
  },
};
