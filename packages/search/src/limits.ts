/*
 * Every bound of the engine's work, in one place (docs/search.md#search-as-a-search-engine). A query's work is
 * bounded by these whatever the directory holds; each cut-off is reached by limits.test.ts.
 */

/** A query is cut into at most this many distinct terms (words); the rest are dropped. */
export const MAX_QUERY_TERMS = 16;

/** A query word of at most this many characters may split in two, and two words join into one of at most this many (split-join.ts). */
export const MAX_SPLIT_LENGTH = 32;

/** A word splits into two words of the directory only where both have at least this many letters (split-join.ts). */
export const MIN_SPLIT_PART = 3;

/** Typos apply to the first this many words of a query that may have some; later words match exactly. */
export const MAX_TYPO_WORDS = 4;

/**
 * At most this many typo-expanded tokens are read per word (fewest typos first, then the most
 * frequent): a word's typo work is at most this many posting lists.
 */
export const MAX_TYPO_TERMS = 100;

/**
 * The most steps (tokens visited, probes of a skip) of one typo walk of the sorted vocabulary.
 * A word walks the whole vocabulary within this budget; past it, a second walk with the same
 * budget takes only the tokens that start with the word's first letter; past that too, the word
 * has no typos. A word's typo walks take at most TYPO_WORD_STEPS. On a vocabulary of 900,000
 * distinct words a 12-letter word with 2 typos would visit over 100,000 tokens; the common
 * words of the bench's 100,000 projects take 170 (1 typo) to 1,300 (2 typos).
 */
export const TYPO_WALK_STEPS = 4_000;
export const TYPO_WORD_STEPS = 2 * TYPO_WALK_STEPS;

/** A tags facet lists at most this many tags (the most frequent; ties by slug). */
export const TOP_TAGS = 50;

/** Caches that outlive a query (caches.ts, vocabulary.ts) keep at most this many entries each. */
export const CACHE_ENTRIES = 512;

/** Pairs a build buffers before a flush (a 1,000,000-project build does not hold all its pairs at once). */
export const PAIR_BATCH = 4_000_000;

/** A put of more projects than this is a batch: its pairs are buffered, its orders sorted once. */
export const BATCH_PUT = 1000;

/**
 * The bounds of a related-projects query (related.ts; docs/search.md#related-projects): its
 * work is at most `visits` postings, then `rescored` × (10 tags + owners + words) membership
 * tests. related.test.ts reaches the visits cut-off.
 */
export const RELATED_LIMITS = {
  /** Distinct words of the project's text looked at (in text order). */
  sourceWords: 256,
  /** Of those, the rarest kept as features. */
  words: 32,
  /** Owners of its links kept as features. */
  owners: 4,
  /** Postings visited to gather candidates, rarest feature first. */
  visits: 20_000,
  /** When the visits ran out: candidates rescored against every feature. */
  rescored: 500,
} as const;
