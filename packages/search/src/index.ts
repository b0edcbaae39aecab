/*
 * @directory/search: the search engine of the read model, pure and database-free. How it
 * works, and its bounds, in docs/search.md ("The engine: a search costs what it returns").
 *
 * - Documents are dense integers (a removed project's number is reused), so that everything
 *   per document is a typed array indexed by it: status, link types as a bit mask, source,
 *   timestamps, a monotone number of the id, where each key starts (store.ts).
 * - Matching is by postings, never by scanning projects. Latin words, pinyin and slugs go
 *   through a vocabulary of distinct tokens (vocabulary.ts): substring by trigrams, short
 *   prefix by a sorted range, typos by a bounded walk over the sorted tokens; CJK characters
 *   and pairs have postings of their own; tags are matched by their text (matching.ts).
 * - A query's matches are bitmaps per match code (bitmap.ts; dense posting lists kept as
 *   bitmaps, postings.ts), combined a machine word at a time; the rank tiers are ranges of a
 *   sorted order of every key; a page takes the score buckets from the cursor's on, each made
 *   only when reached (pages.ts); totals are population counts.
 * - Without q, a page is a walk of a pre-sorted order from the cursor that stops after
 *   limit + 1 (sorted-list.ts: block lists, an update is a binary search and a splice).
 * - Everything is exact: totals, facet counts, cursors (key and id, valid after the cursor's
 *   project is gone).
 */
export { MAX_QUERY_TERMS, RELATED_LIMITS } from './limits.ts';
export { ownerOf } from './owners.ts';
export { readState, type Sink, type Source, writeState } from './persist.ts';
export { type Pin, pinQuery } from './pins.ts';
export type { RelatedHit } from './related-features.ts';
export { SearchIndex } from './search-index.ts';
export { snapshotFingerprint } from './snapshot-probe.ts';
export {
  compareCodePoints,
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
