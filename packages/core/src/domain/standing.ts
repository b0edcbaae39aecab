/*
 * A project's standing (docs/search.md#signals-and-standing): a whole number ≥ 0 from what the
 * directory knows of it, larger for a project a person keeps, with more kinds of links, and with
 * more stars and downloads. It orders only what the text rules of a search leave tied, and
 * `sort=standing` lists by it alone.
 */

/** What standing is computed from. */
export interface StandingInput {
  /** A person keeps it: locked, merged into, or edited, reverted, restored or locked by hand. */
  kept: boolean;
  /** The types of its links (repeats count once). */
  linkTypes: readonly string[];
  stars: number | null;
  downloads: number | null;
}

/** The weights of the formula (docs/search.md#signals-and-standing). */
export const STANDING_WEIGHTS = {
  kept: 300,
  linkType: 50,
  /** Per power of ten of (1 + stars). */
  stars: 40,
  /** Per power of ten of (1 + downloads). */
  downloads: 20,
} as const;

/** A signal's share: `weight` per power of ten, so that a thousand more stars never outweigh a person. */
const logShare = (value: number | null, weight: number): number =>
  value === null || !(value > 0) ? 0 : Math.round(weight * Math.log10(1 + value));

/**
 * kept × 300 + 50 per distinct link type + round(40 × log10(1 + stars)) + round(20 × log10(1 +
 * downloads)). At most 300 + 200 + 640 + 320: a small integer (a Uint16 holds it).
 */
export function standingOf(p: StandingInput): number {
  const types = new Set(p.linkTypes).size;
  return (
    (p.kept ? STANDING_WEIGHTS.kept : 0) +
    types * STANDING_WEIGHTS.linkType +
    logShare(p.stars, STANDING_WEIGHTS.stars) +
    logShare(p.downloads, STANDING_WEIGHTS.downloads)
  );
}
