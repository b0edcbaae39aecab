import { codeTypos } from '../ranking.ts';
import { type Bucket, groupBy, type Ranking, type RankingRule } from './rule.ts';

/** Typo: fewer typos first (0, 1, 2 edits; the worst word of a document counts, ranking.ts). */
export const typo: RankingRule = {
  name: 'typo',
  buckets(r: Ranking, bucket: Bucket) {
    return groupBy(bucket.parts, (p) => -codeTypos(p.code), r.desc);
  },
};
