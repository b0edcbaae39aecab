import { MAX_BREVITY } from './coverage.ts';
import { docStanding, MAX_STANDING } from './standing.ts';

/*
 * The last rules of a relevance page, coverage then standing, are static per project: their
 * value is one number, the rank part of a hit's `match.score` (ranking.ts fullScore), and the
 * store keeps every document in its order (byRank), so that a bucket of the rules before is
 * walked in it from the best (rules/sort.ts).
 */

/** What the rank part is read from: the store's columns. */
export interface RankColumns {
  brevity: ArrayLike<number>;
  standing: ArrayLike<number>;
}

/** The rank part of a document's score: the shorter its name, then the higher its standing, the higher. */
export const rankScore = (st: RankColumns, d: number): number =>
  (MAX_BREVITY - st.brevity[d]!) * (MAX_STANDING + 1) + docStanding(st, d);

/** byRank's order: the highest rank part first. */
export const compareRank = (st: RankColumns, a: number, b: number): number =>
  rankScore(st, b) - rankScore(st, a);
