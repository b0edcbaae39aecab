import type { MatchField } from './types.ts';

/*
 * The ranking's scores: every tier, score and `match.field` class of a search lives in this
 * file. The order of a relevance page is the ranking rules' (rules/, bucket-sort.ts: words,
 * typo, exactness, attribute, sort); a hit's `match.score` numbers the bucket it is in, so that
 * the scores fall in the rules' order and a cursor resumes at its score.
 *
 * How a project matched is summed up in one byte, its match code, built per query word and
 * combined over the words (search-index.ts computes it from the postings):
 *   - the class of the place a word was found: 3 the name (name, nameEn, slug, pinyin,
 *     initials), 2 a tag, 1 the description (description, descriptionEn);
 *   - typos: 0, 1 or 2 edits (docs/search.md#search-as-a-search-engine);
 *   - synonym: whether the word was found only as another term of its synonym set.
 * A word's code is the best way it was found (fewest typos first, then the highest class,
 * then the word itself before a synonym). Every word must match, and a project ranks by its
 * worst word: the query's code takes, field by field, the worst of its words (most typos,
 * lowest class, synonym if any word needed one). The code is laid out "bigger is better" in
 * each field, so that best-of is `max` and worst-of is a field-wise `min`.
 *
 * On top of the code, the whole query (its words without spaces, or a synonym of it when the
 * query is one synonym term) may equal or start one of the project's keys: its name, nameEn or
 * slug without spaces, its full pinyin, its pinyin initials (the key tier).
 *
 * Scores (higher first; ties by id). Without typos, today's scores stay: 100 the whole query is
 * a key, 80 it starts one, else 60 name, 40 tag, 20 description; a synonym ranks just below the
 * word itself (99, 79, 59, 39, 19). Every match with typos ranks below every match without:
 * one typo 15/13/11 (name/tag/description), two typos 5/3/1, keys and synonyms not told apart
 * there.
 */

const TYPOS_SHIFT = 3;
const CLASS_SHIFT = 1;

export const CLASS_NAME = 3;
export const CLASS_TAG = 2;
export const CLASS_DESCRIPTION = 1;

/** The match code of one way a word was found. */
export const matchCode = (cls: number, typos: number, synonym: boolean): number =>
  ((2 - typos) << TYPOS_SHIFT) | (cls << CLASS_SHIFT) | (synonym ? 0 : 1);

export const codeTypos = (code: number): 0 | 1 | 2 => (2 - (code >> TYPOS_SHIFT)) as 0 | 1 | 2;
export const codeClass = (code: number): number => (code >> CLASS_SHIFT) & 3;
export const codeSynonym = (code: number): boolean => (code & 1) === 0;

/** A project matching two words (or two terms of one synonym) ranks by the worse of them, field by field. */
export const worseOf = (a: number, b: number): number =>
  Math.min(a & 0b11000, b & 0b11000) | Math.min(a & 0b110, b & 0b110) | Math.min(a & 1, b & 1);

/** Key tiers: how the whole query relates to a key of the project. */
export const KEY_NONE = 0;
export const KEY_PREFIX_SYNONYM = 1;
export const KEY_PREFIX = 2;
export const KEY_EXACT_SYNONYM = 3;
export const KEY_EXACT = 4;

/** The keys of a project, in the order that decides `match.field` when several qualify. */
export const KEY_FIELDS: readonly MatchField[] = ['name', 'nameEn', 'slug', 'pinyin', 'initials'];

/** The fields of each class, in the order that decides `match.field` within a class. */
export const CLASS_FIELDS: Record<number, readonly MatchField[]> = {
  [CLASS_NAME]: ['name', 'nameEn', 'slug', 'pinyin'],
  [CLASS_TAG]: ['tags'],
  [CLASS_DESCRIPTION]: ['description', 'descriptionEn'],
};

/** The score of a project from its match code and key tier. */
export function score(code: number, keyTier: number): number {
  const typos = codeTypos(code);
  const cls = codeClass(code);
  if (typos === 0) {
    if (keyTier === KEY_EXACT) return 100;
    if (keyTier === KEY_EXACT_SYNONYM) return 99;
    if (keyTier === KEY_PREFIX) return 80;
    if (keyTier === KEY_PREFIX_SYNONYM) return 79;
    return 20 * cls - (codeSynonym(code) ? 1 : 0);
  }
  return (typos === 1 ? 9 : -1) + 2 * cls;
}

/** Whether a score is one of the key tiers (its field is then the key's). */
export const isKeyScore = (s: number): boolean => s >= 79;

/** The highest score any match can have: scores fit in a byte. */
export const MAX_SCORE = 100;

/** score() of every match code (< 32) and key tier (< 8), looked up per hit. */
export const SCORES = new Uint8Array(256).map((_, i) => (i >> 3 === 0 ? 0 : score(i >> 3, i & 7)));

/*
 * A hit's `match.score` is its bucket's score above (the rules up to attribute): it never rises
 * down a page. Within a bucket, coverage then standing (rules/rank-order.ts) order the hits; a
 * relevance cursor's key is the full score, the bucket's times RANK_SPAN plus that rank part, so
 * that a page resumes exactly where the last one ended.
 */
export const RANK_SPAN = 2 ** 32;

export const fullScore = (bucketScore: number, rank: number): number => bucketScore * RANK_SPAN + rank;

/** The bucket's score of a full score. */
export const bucketScoreOf = (full: number): number => Math.floor(full / RANK_SPAN);

/** The rank part of a full score. */
export const rankOf = (full: number): number => full % RANK_SPAN;
