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

  it('forgets a project once the horizon reaches the xmax of the first read after it was applied', () => {
    const v = new AppliedVersions();
    for (let i = 0; i < 1000; i++) v.set(`p${i}`, i + 1);
    v.passed(100n, 120n); // closes the generation: its bound is the next read's xmax
    expect(v.size).toBe(1000);
    v.passed(110n, 130n); // bound 130; the horizon 110 has not reached it
    expect(v.has('p999', 1000)).toBe(true);
    v.passed(129n, 131n);
    expect(v.size).toBe(1000);
    v.passed(130n, 131n);
    expect(v.size).toBe(0);
  });

  it('keeps everything while an old transaction holds the horizon back, however long', () => {
    const v = new AppliedVersions();
    for (let round = 0; round < 50; round++) {
      v.set(`p${round}`, round + 1);
      v.passed(100n, BigInt(200 + round)); // xmin stays at 100
    }
    expect(v.size).toBe(50);
    expect(v.has('p0', 1)).toBe(true);
    v.passed(300n, 300n);
    v.passed(300n, 300n);
    expect(v.size).toBe(0);
  });

  it('keeps a project changed again in a newer generation at its newer version', () => {
    const v = new AppliedVersions();
    v.set('p1', 1);
    v.passed(10n, 10n);
    v.set('p1', 3);
    v.passed(11n, 12n); // the first generation gets its bound, 12: the horizon 11 is below it
    expect(v.has('p1', 3)).toBe(true);
    v.passed(12n, 13n); // the first generation dropped; the second (p1 at 3) bound at 13
    expect([v.has('p1', 3), v.has('p1', 1), v.size]).toEqual([true, true, 1]);
    v.passed(13n, 13n);
    expect(v.has('p1', 1)).toBe(false);
  });
});
