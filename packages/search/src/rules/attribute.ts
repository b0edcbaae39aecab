import { codeClass, codeSynonym, codeTypos, KEY_NONE } from '../ranking.ts';
import { ANY_TIER, type Bucket, groupBy, type Ranking, type RankingRule } from './rule.ts';

/**
 * Attribute: where the worst word was found — the name (name, nameEn, slug, pinyin), a tag, the
 * description — and, without typos, the word itself before a synonym of it. A document whose
 * key the whole query is or starts (exactness) is not told apart by attribute.
 */
export const attribute: RankingRule = {
  name: 'attribute',
  buckets(r: Ranking, bucket: Bucket) {
    if (bucket.parts.some((p) => p.tier !== KEY_NONE && p.tier !== ANY_TIER)) return [bucket];
    return groupBy(
      bucket.parts,
      (p) => codeClass(p.code) * 2 + (codeTypos(p.code) === 0 && codeSynonym(p.code) ? 0 : 1),
      r.desc,
    );
  },
};
