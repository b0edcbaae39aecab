import type { IndexedProject } from '../types.ts';

/**
 * Standing (docs/search.md#signals-and-standing): what the directory knows of a project beyond its text —
 * kept by a person, its kinds of links, its stars and downloads —, one integer the read model
 * computes (packages/core domain/standing.ts) and the engine keeps per document. It orders only
 * what the rules before it leave tied (after coverage), and alone with `sort=standing`.
 */

/** The highest standing the ranking tells apart (a score keeps 16 bits of it). */
export const MAX_STANDING = 0xffff;

export const standingOf = (p: IndexedProject | undefined): number =>
  Math.min(MAX_STANDING, Math.max(0, Math.floor(p?.standing ?? 0)));

/** A document's standing in the store (0 until one is put). */
export const docStanding = (st: { standing: ArrayLike<number> }, d: number): number =>
  Math.min(MAX_STANDING, st.standing[d]!);
