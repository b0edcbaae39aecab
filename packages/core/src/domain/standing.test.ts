import { describe, expect, it } from 'vitest';
import { STANDING_WEIGHTS, standingOf } from './standing.ts';

const base = { kept: false, linkTypes: [] as string[], stars: null, downloads: null };

describe('standingOf (docs/search.md#signals-and-standing)', () => {
  it('is 0 for a project nobody keeps, without links or signals', () => {
    expect(standingOf(base)).toBe(0);
  });

  it('counts each link type once', () => {
    expect(standingOf({ ...base, linkTypes: ['CODEHOST', 'CODEHOST', 'WEBSITE'] })).toBe(
      2 * STANDING_WEIGHTS.linkType,
    );
  });

  it('log-scales stars and downloads', () => {
    expect(standingOf({ ...base, stars: 9 })).toBe(40);
    expect(standingOf({ ...base, stars: 999 })).toBe(120);
    expect(standingOf({ ...base, downloads: 99 })).toBe(40);
    expect(standingOf({ ...base, stars: 0, downloads: 0 })).toBe(0);
  });

  it('puts a kept project above one with a thousand stars more', () => {
    const kept = standingOf({ ...base, kept: true, stars: 10 });
    const starred = standingOf({ ...base, stars: 10_000 });
    expect(kept).toBeGreaterThan(starred);
  });

  it('is a non-negative integer within a Uint16 even at the largest signals', () => {
    const most = standingOf({
      kept: true,
      linkTypes: ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'],
      stars: Number.MAX_SAFE_INTEGER,
      downloads: Number.MAX_SAFE_INTEGER,
    });
    expect(Number.isInteger(most)).toBe(true);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(65_536);
  });
});
