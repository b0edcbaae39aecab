/**
 * A query word (matching.ts): the terms that must all match, and its alternatives — the terms of
 * its synonyms, its splits and joins (split-join.ts) —, each a conjunction, ranked just below the
 * word itself.
 */
export interface Word {
  terms: string[];
  synonyms: string[][];
}
