import type { Bucket, Ranking, RankingRule } from './rule.ts';

/**
 * Proximity (docs/search.md#ranking-rules): the query's words nearer each other first. The
 * engine's postings hold which projects have a word, not where, so proximity is decided where
 * it is cheap and certain: the whole query equal to or starting a key of the project (words
 * adjacent and in order, rules/exactness.ts) and a joined or split word (matching.ts) rank it;
 * the words of a bucket the key tiers leave tied rank alike here. Kept as its own rule so
 * that `explain=1` shows it and a finer measure has its place.
 */
export const proximity: RankingRule = {
  name: 'proximity',
  *buckets(_r: Ranking, bucket: Bucket) {
    yield bucket;
  },
};
