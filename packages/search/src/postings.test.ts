import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitPool } from './bitmap.ts';
import { Postings } from './postings.ts';

/*
 * The postings and bitmaps a search reads, against plain sets: lists long enough to be read
 * as bitmaps (a document per 32 of the directory, 256 at least), through adds, removals and
 * batch adds in any order, and the bitmap operations a query combines.
 */

const DOCS = 4096;
const toSet = (docs: Uint32Array, n: number) => new Set(Array.from(docs.subarray(0, n)));

describe('postings read as bitmaps', () => {
  it('a list read into a bitmap holds exactly its documents, before and after writes', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), term: fc.nat(2), doc: fc.nat(DOCS - 1) }),
      fc.record({ kind: fc.constant('delete' as const), term: fc.nat(2), doc: fc.nat(DOCS - 1) }),
      fc.record({ kind: fc.constant('read' as const), term: fc.nat(2), doc: fc.constant(0) }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.nat(DOCS - 1), { minLength: 300, maxLength: 2000 }),
        fc.array(op, { maxLength: 300 }),
        (initial, ops) => {
          const postings = new Postings();
          const truth = [new Set<number>(), new Set<number>(), new Set<number>()];
          // a build: pairs in document order, then the rest one by one
          const sorted = [...new Set(initial)].sort((a, b) => a - b);
          const terms = new Uint32Array(sorted.length);
          postings.addPairs(terms, Uint32Array.from(sorted), sorted.length);
          for (const d of sorted) truth[0]!.add(d);
          const pool = new BitPool();
          const check = (term: number) => {
            pool.begin(DOCS);
            const bits = pool.take();
            postings.orInto(term, bits);
            const list = new Uint32Array(DOCS);
            const n = bits.toList(list);
            expect(toSet(list, n)).toEqual(truth[term]);
            expect(bits.count()).toBe(truth[term]!.size);
            pool.end();
          };
          check(0);
          for (const o of ops) {
            if (o.kind === 'add') {
              postings.add(o.term, o.doc);
              truth[o.term]!.add(o.doc);
            } else if (o.kind === 'delete') {
              postings.delete(o.term, o.doc);
              truth[o.term]!.delete(o.doc);
            } else check(o.term);
          }
          for (const t of [0, 1, 2]) check(t);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('OR, AND, AND NOT and AND-into give what sets give', () => {
    const set = fc.array(fc.nat(DOCS - 1), { maxLength: 600 });
    fc.assert(
      fc.property(set, set, (xs, ys) => {
        const pool = new BitPool();
        pool.begin(DOCS);
        const of = (docs: number[]) => {
          const b = pool.take();
          b.addList(docs, docs.length);
          return b;
        };
        const read = (b: ReturnType<typeof of>) => {
          const list = new Uint32Array(DOCS);
          return toSet(list, b.toList(list));
        };
        const x = new Set(xs);
        const y = new Set(ys);
        const or = of(xs);
        or.or(of(ys));
        expect(read(or)).toEqual(new Set([...x, ...y]));
        const and = of(xs);
        and.and(of(ys));
        expect(read(and)).toEqual(new Set([...x].filter((d) => y.has(d))));
        const andNot = of(xs);
        andNot.andNot(of(ys));
        expect(read(andNot)).toEqual(new Set([...x].filter((d) => !y.has(d))));
        const into = of([1, 2, 3]);
        of(xs).andInto(of(ys), into);
        expect(read(into)).toEqual(new Set([1, 2, 3, ...[...x].filter((d) => y.has(d))]));
        expect(and.count()).toBe([...x].filter((d) => y.has(d)).length);
        pool.end();
        // given back zeroed
        pool.begin(DOCS);
        expect(pool.take().count()).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
