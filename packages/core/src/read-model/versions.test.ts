import { describe, expect, it } from 'vitest';
import { AppliedVersions } from './versions.ts';

describe('AppliedVersions', () => {
  it('knows a version and every older one of a project, not a newer one', () => {
    const v = new AppliedVersions();
    v.set('p1', 5);
    expect([v.has('p1', 4), v.has('p1', 5), v.has('p1', 6), v.has('p2', 0)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    v.set('p1', 3); // an older one changes nothing
    expect(v.has('p1', 5)).toBe(true);
  });

  it('forgets what was applied more than two generations ago, so it does not grow with every project written', () => {
    let now = 0;
    const v = new AppliedVersions(1000, () => now);
    for (let i = 0; i < 10_000; i++) {
      now = i; // 10 s of writes, a project a millisecond
      v.set(`p${i}`, i + 1);
    }
    // at most two generations of 1,000 ms are kept: the last 1,000–2,000 projects
    expect(v.size).toBeLessThanOrEqual(2000);
    expect(v.size).toBeGreaterThanOrEqual(1000);
    expect(v.has('p9999', 10_000)).toBe(true);
    expect(v.has('p8500', 8501)).toBe(true);
    expect(v.has('p100', 101)).toBe(false);
  });

  it('keeps a project changed again in the newer generation', () => {
    let now = 0;
    const v = new AppliedVersions(1000, () => now);
    v.set('p1', 1);
    now = 1500;
    v.set('p2', 2); // rotates: p1 in the older generation
    v.set('p1', 3);
    now = 3000;
    v.set('p3', 4); // rotates again: the generation that held p1 at 1 is gone, p1 at 3 stays
    expect(v.has('p1', 3)).toBe(true);
  });
});
