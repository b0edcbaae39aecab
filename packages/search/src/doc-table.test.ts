import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocTable } from './doc-table.ts';
import { DocText } from './doc-text.ts';

/*
 * The per-document text (doc-text.ts) and the tables of documents by a text of theirs
 * (doc-table.ts), against plain Maps: through writes, rewrites, removals and the compaction
 * and rehashes they cause.
 */

describe('documents by a text of theirs', () => {
  it('answers as a Map of the key put last, through sets, key changes and removals', () => {
    const op = fc.record({
      kind: fc.constantFrom('set', 'remove'),
      doc: fc.nat(40),
      key: fc.constantFrom('a', 'b', 'c', 'qwen', '通义', 'x-1', 'x-2', '', 'ab'),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const keys: (string | undefined)[] = [];
        const table = new DocTable((d) => keys[d]);
        const truth = new Map<string, number>();
        for (const o of ops) {
          const old = keys[o.doc];
          if (old !== undefined) {
            // the entry goes before the key changes, as the store does
            table.deleteDoc(old, o.doc);
            if (truth.get(old) === o.doc) truth.delete(old);
            keys[o.doc] = undefined;
          }
          if (o.kind === 'set') {
            keys[o.doc] = o.key;
            table.set(o.key, o.doc);
            truth.set(o.key, o.doc);
          }
          for (const k of ['a', 'b', 'c', 'qwen', '通义', 'x-1', 'x-2', '', 'ab', 'zz'])
            expect(table.get(k), k).toBe(truth.get(k));
          expect([...table.values()].sort((a, b) => a - b)).toEqual(
            [...truth.values()].sort((a, b) => a - b),
          );
          expect(table.size).toBe(truth.size);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps each document’s text through rewrites and the compactions they cause', () => {
    const fields = fc.record({
      id: fc.string({ minLength: 1 }),
      name: fc.string(),
      nameEn: fc.option(fc.string(), { nil: null }),
      slug: fc.string(),
      description: fc.string({ unit: 'grapheme', maxLength: 300 }),
      descriptionEn: fc.option(fc.string(), { nil: null }),
      linkTypes: fc.array(
        fc.constantFrom('WEBSITE' as const, 'CODEHOST' as const, 'MODELHUB' as const, 'PAPER' as const),
      ),
      owners: fc.array(fc.string({ minLength: 1 }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(30), fc.option(fields, { nil: undefined })), { maxLength: 300 }),
        (ops) => {
          const text = new DocText();
          const truth = new Map<number, unknown>();
          for (const [d, f] of ops) {
            if (f) {
              text.set(d, f);
              truth.set(d, f);
            } else {
              text.delete(d);
              truth.delete(d);
            }
          }
          text.trim();
          for (let d = 0; d <= 30; d++) {
            expect(text.fields(d)).toEqual(truth.get(d));
            expect(text.field(d, 'slug')).toEqual((truth.get(d) as { slug: string } | undefined)?.slug);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
