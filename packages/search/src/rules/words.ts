import type { Bucket, Ranking, RankingRule } from './rule.ts';

/**
 * Words: the more of the query's words a document has, the better. Every word must match here
 * (docs/search.md#how-matching-works), so every match has all of them: one bucket. A directory that let
 * a query's last words go (as Meilisearch does) would split here.
 */
export const words: RankingRule = {
  name: 'words',
  *buckets(_r: Ranking, bucket: Bucket) {
    yield bucket;
  },
};
