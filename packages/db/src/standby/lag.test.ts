import { describe, expect, it } from 'vitest';
import { PrimaryProgress, parseLsn } from './lag.ts';

describe('replay lag', () => {
  it('reads WAL positions', () => {
    expect(parseLsn('0/3016038')).toBe(0x3016038n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(() => parseLsn('nope')).toThrow();
  });

  it('is the age of the first primary position the standby has not replayed', () => {
    const p = new PrimaryProgress(60_000);
    expect(p.lagMs(0n, 0)).toBeUndefined();
    p.record(1_000, 100n);
    p.record(1_200, 100n); // the primary wrote nothing: the first sighting stays
    p.record(1_400, 300n);
    p.record(1_600, 500n);
    expect(p.lagMs(500n, 2_000)).toBe(0);
    expect(p.lagBytes(500n)).toBe(0);
    expect(p.lagMs(300n, 2_000)).toBe(400); // 500 first seen at 1,600
    expect(p.lagMs(100n, 2_000)).toBe(600); // 300 first seen at 1,400
    expect(p.lagBytes(100n)).toBe(400);
  });

  it('does not grow while the primary is idle and the standby has replayed everything', () => {
    const p = new PrimaryProgress(60_000);
    for (let t = 0; t <= 10_000; t += 200) p.record(t, 700n);
    expect(p.lagMs(700n, 10_000)).toBe(0);
  });

  it('keeps a bounded window, and answers where the primary was some time ago', () => {
    const p = new PrimaryProgress(1_000);
    for (let t = 0; t <= 5_000; t += 100) p.record(t, BigInt(t));
    expect(p.lagMs(0n, 5_000)).toBeGreaterThanOrEqual(1_000);
    expect(p.at(500, 5_000)).toBe(4_500n);
  });
});
