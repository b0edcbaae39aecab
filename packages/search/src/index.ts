/*
 * @directory/search: the search engine of the read model, pure and database-free.
 *
 * Design (measurements: bench/engine.ts, figures below and in the README's search section).
 * - Documents are dense integers (a removed project's number is reused), so that everything
 *   per document is a typed array indexed by it: status, link types as a bit mask, source,
 *   timestamps, a monotone number of the id (ties by id compare a number, not a string).
 * - Matching is by postings, never by scanning projects. Latin words, pinyin and slugs go
 *   through a vocabulary of distinct tokens (vocabulary.ts): a query term finds its tokens
 *   there (substring by trigrams, short prefix by a sorted range, typos by an edit-distance
 *   walk over the sorted tokens), then their postings. Chinese has no words to look up, so
 *   each CJK character and character pair has postings (a 1–2 character term is one list; a
 *   longer one intersects its pairs and the text decides). Tags are matched by their own text
 *   (few, scanned per distinct term and cached) and reach projects through their postings.
 *   Postings are sorted document lists stored by size (postings.ts): a number, an array, or
 *   a Uint32Array. A put diffs the project's old and new terms: O(its tokens), no rebuild.
 * - A query's matches are a reusable scratch set (stamp array + list + one byte per
 *   document, the match code of ranking.ts), so a word matching a quarter of the directory
 *   allocates nothing per match. Filters are tests on the typed arrays; facets count in the
 *   same pass over the matches, each ignoring its own filter; the maintained counts answer
 *   the facets of the whole directory.
 * - The page is a bounded heap of limit + 1 over the matches (top-k without sorting them),
 *   or, for updated/created/name with many matches, a walk of a pre-sorted order from the
 *   cursor that stops after limit + 1 (O(limit) for an unsearched list). The orders are
 *   block lists (sorted-list.ts): an update is a binary search and a splice of one block.
 * - Everything is exact: totals, facet counts, cursors (key and id, valid after the cursor's
 *   project is gone).
 */
export { SearchIndex } from './search-index.ts';
export {
  compareCodePoints,
  MAX_QUERY_TERMS,
  nameSortKey,
  normalize,
  pinyinSyllables,
  tokens,
} from './text.ts';
export type {
  After,
  FacetName,
  IndexedProject,
  IndexedTag,
  LinkType,
  MatchField,
  ProjectFacets,
  ProjectHit,
  ProjectHits,
  ProjectQuery,
  ProjectSort,
  ProjectStatus,
  TagFacet,
  TagHit,
  TagQuery,
  ValueFacet,
} from './types.ts';
