import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedList } from './sorted-list.ts';

/* The block list's skip and between against a plain sorted array, over many blocks. */
describe('SortedList skip', () => {
  it('skips exactly the run of elements below a bound, from any position', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(5000), { minLength: 1, maxLength: 4000 }),
        fc.nat(5000),
        fc.nat(5000),
        (xs, startAt, bound) => {
          const list = new SortedList((a, b) => a - b);
          const items = [...new Set(xs)];
          // half by a reset, half one by one (blocks of other sizes)
          list.reset(items.slice(0, items.length >> 1));
          for (const x of items.slice(items.length >> 1)) list.insert(x);
          const sorted = [...items].sort((a, b) => a - b);
          const from = list.seek((x) => x < Math.min(startAt, bound));
          const p = { ...from };
          list.skip(p, (x) => x < bound);
          const expected = sorted.find((x) => x >= bound);
          expect(list.at(p)).toBe(expected);
          const seen: number[] = [];
          list.between(from, p, (x) => seen.push(x));
          expect(seen).toEqual(sorted.filter((x) => x >= Math.min(startAt, bound) && x < bound));
        },
      ),
      { numRuns: 150 },
    );
  });
});
