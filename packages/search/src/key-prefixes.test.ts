import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_QUERY } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { KEY_PREFIX_MAX, keyPrefixCode, SEP } from './terms.ts';
import type { IndexedProject, ProjectQuery } from './types.ts';

/*
 * The key prefixes kept as posting lists (store.ts keyPrefix): after builds, renames, removals
 * and numbers reused, each prefix of 1 to KEY_PREFIX_MAX code units holds exactly the
 * documents with a key starting with it (a document with two such keys keeps it while one
 * remains), and a short query's key tiers (scores 100 and 80) are those of the keys.
 */

const WORDS = ['model', 'mode', 'mo', 'moxing', 'open', 'op', '模型', '模', '智能', 'data', 'da'];
const NAMES = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));

function project(i: number, name: string, nameEn: string | null): IndexedProject {
  return {
    id: `p${String(i).padStart(5, '0')}`,
    name,
    nameEn,
    slug: `s-${i}`,
    description: 'a project for the key prefix test',
    descriptionEn: null,
    status: 'ACTIVE',
    source: null,
    createdAt: i,
    updatedAt: i,
    tagIds: [],
    linkTypes: [],
  };
}

/** The documents whose keys (any of the five) start with a text, by brute force over the keys. */
function truth(index: SearchIndex, prefix: string): number[] {
  const ix = index.store;
  const out: number[] = [];
  for (let d = 0; d < ix.end; d++) {
    if (!ix.projects[d]) continue;
    if (ix.keys[d]!.split(SEP).some((k) => k.length > 0 && k.startsWith(prefix))) out.push(d);
  }
  return out;
}

function held(index: SearchIndex, prefix: string): number[] {
  const ix = index.store;
  const id = ix.keyPrefixIds.get(keyPrefixCode(prefix, 0, prefix.length));
  if (id === undefined) return [];
  const out: number[] = [];
  ix.keyPrefix.forEach(id, (d) => out.push(d));
  return out;
}

function checkAll(ix: SearchIndex) {
  const prefixes = new Set<string>(['z', 'mox', '模x']);
  for (let d = 0; d < ix.store.end; d++)
    for (const k of ix.store.keys[d]?.split(SEP) ?? [])
      for (let n = 1; n <= KEY_PREFIX_MAX && n <= k.length; n++) prefixes.add(k.slice(0, n));
  for (const p of prefixes) expect(held(ix, p), p).toEqual(truth(ix, p));
}

const base: ProjectQuery = BASE_QUERY;

describe('key prefixes', () => {
  it('hold the documents of every short key prefix through puts, renames and removals', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(NAMES, fc.option(NAMES)), { minLength: 1, maxLength: 40 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('rename' as const, 'remove' as const, 'add' as const),
            at: fc.nat(60),
            name: NAMES,
            nameEn: fc.option(NAMES),
          }),
          { maxLength: 40 },
        ),
        (initial, ops) => {
          const ix = new SearchIndex();
          ix.put(initial.map(([name, nameEn], i) => project(i, name, nameEn)));
          checkAll(ix);
          for (const op of ops) {
            const id = project(op.at, '', null).id;
            if (op.kind === 'remove') ix.remove([id]);
            else if (op.kind === 'add' || ix.project(id)) ix.put([project(op.at, op.name, op.nameEn)]);
          }
          checkAll(ix);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('give the same key tiers as the keys, on lists read as bitmaps, after a bulk build and single writes', () => {
    const ix = new SearchIndex();
    // more than 1,000 projects: a bulk put; the common prefixes are then dense lists
    const names = (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`;
    ix.put(Array.from({ length: 3000 }, (_, i) => project(i, names(i), i % 3 === 0 ? 'Model X' : null)));
    for (let i = 0; i < 3000; i += 7) ix.remove([project(i, '', null).id]);
    for (let i = 1; i < 3000; i += 11) ix.put([project(i, 'open data', null)]);
    ix.put([project(5000, 'mo', 'Mode')]);
    checkAll(ix);
    for (const q of ['mo', 'mod', 'op', '模', '模型', 'd', 'model']) {
      const all: { id: string; score: number }[] = [];
      let after: ProjectQuery['after'];
      for (;;) {
        const r = ix.findProjects({ ...base, q, typos: false, after });
        for (const h of r.hits.slice(0, 100)) all.push({ id: h.id, score: h.match!.score });
        if (r.hits.length <= 100) break;
        const last = r.hits[99]!;
        after = { key: last.key, id: last.id };
      }
      // a query of Chinese characters alone has no prefix tier (rules/exactness.ts)
      const starts = new Set(/^\p{Script=Han}+$/u.test(q) ? [] : truth(ix, q).map((d) => ix.store.ids[d]!));
      const exact = new Set(
        Array.from({ length: ix.store.end }, (_, d) => d)
          .filter((d) => ix.store.projects[d] && ix.store.keys[d]!.includes(`${SEP}${q}${SEP}`))
          .map((d) => ix.store.ids[d]!),
      );
      for (const h of all) {
        const want = exact.has(h.id) ? 100 : starts.has(h.id) ? 80 : undefined;
        if (want !== undefined) expect(h.score, `${q} ${h.id}`).toBe(want);
        else expect(h.score, `${q} ${h.id}`).toBeLessThan(80);
      }
    }
  });
});
