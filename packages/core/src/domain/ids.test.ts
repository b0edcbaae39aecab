import { init, isCuid } from '@paralleldrive/cuid2';
import { describe, expect, it, vi } from 'vitest';
import { createId, idMaker } from './ids.ts';

/** A seeded generator, so that both makers draw the same "random" numbers. */
const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

describe('createId', () => {
  it('gives the same id as @paralleldrive/cuid2 from the same time, randomness, counter and fingerprint', () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    try {
      for (let s = 1; s <= 200; s++) {
        const options = { random: seeded(s), fingerprint: `fp${s}`, counter: (() => s * 7) as () => number };
        const theirs = init({ ...options, random: seeded(s) })();
        const ours = idMaker({ ...options, random: seeded(s) })();
        expect(ours).toBe(theirs);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('makes cuid2 strings of 24 characters, all different', () => {
    const ids = Array.from({ length: 10_000 }, () => createId());
    for (const id of ids.slice(0, 100)) {
      expect(isCuid(id)).toBe(true);
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
