import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bits } from './bitmap.ts';
import { QueryCaches } from './caches.ts';
import { SearchContext } from './context.ts';
import { cheaperWay, countFacets, type FacetWay } from './facets.ts';
import { compileFilters } from './filters.ts';
import { TOP_TAGS } from './limits.ts';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { compareCodePoints } from './text.ts';
import type { FacetName, IndexedProject, LinkType, ProjectFacets, ProjectQuery } from './types.ts';

/*
 * Facets (docs/search.md#facets): counted by value and counted by document, each equals a
 * brute force over the projects as they were written (not the index), on random sets of
 * matches with random filters, of a directory written in a build and then one project at a
 * time (updates, removals, reused document numbers); and on either side of the cost model's
 * threshold, where its choice flips.
 */

const N = 3000;
const LINKS: LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
const { projects, tags } = toIndexed(Array.from({ length: N }, (_, i) => SAMPLE[i % SAMPLE.length]!));
// tags of every density: a few on most projects (read as bitmaps), most on a few (read as lists)
for (const [i, p] of projects.entries()) {
  const x = (i * 2654435761) >>> 0;
  p.tagIds = tags.filter((_, t) => (x >>> (t % 29)) % (t + 2) === 0).map((t) => t.id);
  p.status = x % 5 === 0 ? 'ARCHIVED' : 'ACTIVE';
  p.linkTypes = LINKS.filter((_, b) => (x >>> (b * 3)) % (b + 2) === 0);
}

const base: ProjectQuery = { ...BASE_QUERY, sort: 'updated', limit: 20 };
const ALL: FacetName[] = ['status', 'linkTypes', 'tags'];
const slugOfTag = new Map(tags.map((t) => [t.id, t.slug]));

/** The facets of `set` (every project when undefined) past the filters of `q`, counted project by project. */
function bruteForce(live: Map<string, IndexedProject>, set: Set<string> | undefined, q: ProjectQuery) {
  const tagIdsOf = (slugs: string[]) => slugs.map((s) => tags.find((t) => t.slug === s)?.id);
  const wanted = tagIdsOf(q.tagSlugs);
  const passes = (p: IndexedProject, name: FacetName) =>
    (name === 'status' || q.status === undefined || p.status === q.status) &&
    (name === 'linkTypes' || q.linkTypes.every((l) => p.linkTypes.includes(l))) &&
    (name === 'tags' ||
      q.tagSlugs.length === 0 ||
      (q.tagMode === 'all'
        ? wanted.every((id) => id !== undefined && p.tagIds.includes(id))
        : wanted.some((id) => id !== undefined && p.tagIds.includes(id))));
  const counts = {
    status: new Map<string, number>(),
    linkTypes: new Map<string, number>(),
    tags: new Map<string, number>(),
  };
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const p of live.values()) {
    if (set && !set.has(p.id)) continue;
    if (passes(p, 'status')) add(counts.status, p.status);
    if (passes(p, 'linkTypes')) for (const l of p.linkTypes) add(counts.linkTypes, l);
    if (passes(p, 'tags')) for (const t of p.tagIds) add(counts.tags, slugOfTag.get(t)!);
  }
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]));
  return {
    status: sorted(counts.status).map(([value, count]) => ({ value, count })),
    linkTypes: sorted(counts.linkTypes).map(([value, count]) => ({ value, count })),
    tags: sorted(counts.tags)
      .slice(0, TOP_TAGS)
      .map(([slug, count]) => ({ slug, count })),
  };
}

/** What a facet answer says, in the brute force's terms. */
const shown = (f: ProjectFacets) => ({
  status: f.status,
  linkTypes: f.linkTypes,
  tags: f.tags?.map((t) => ({ slug: t.slug, count: t.count })),
});

describe('facet counts by value and by document', () => {
  const index = new SearchIndex();
  const live = new Map<string, IndexedProject>();
  const put = (ps: IndexedProject[]) => {
    index.put(ps);
    for (const p of ps) live.set(p.id, p);
  };
  index.putTags(tags);
  put(projects);
  // single writes after the build: a removal, a changed project, a reused number
  const removed = projects.slice(0, 300).map((p) => p.id);
  index.remove(removed);
  for (const id of removed) live.delete(id);
  put(
    projects.slice(300, 600).map((p, i) => ({
      ...p,
      status: p.status === 'ACTIVE' ? 'ARCHIVED' : 'ACTIVE',
      linkTypes: LINKS.slice(i % 4),
      tagIds: tags.slice(i % 7, (i % 7) + 3).map((t) => t.id),
    })),
  );
  put(projects.slice(0, 100).map((p) => ({ ...p, id: `${p.id}-again` })));
  index.prepare();
  const ix = index.store;
  const cx = new SearchContext(ix, new QueryCaches());
  const ids = [...live.keys()];
  const setOf = (chosen: string[]) => {
    const bits = new Bits((ix.end + 31) >>> 5);
    for (const id of chosen) bits.add(ix.docOf.get(id)!);
    return bits;
  };
  const facetsOf = (q: ProjectQuery, chosen: string[] | undefined, choose?: () => FacetWay) =>
    cx.run(() =>
      shown(countFacets(cx, compileFilters(ix, q), ALL, chosen && setOf(chosen), choose ?? cheaperWay)),
    );

  const filters = fc.record({
    status: fc.constantFrom(undefined, 'ACTIVE' as const, 'ARCHIVED' as const),
    tagSlugs: fc.subarray(
      tags.slice(0, 8).map((t) => t.slug),
      { maxLength: 2 },
    ),
    tagMode: fc.constantFrom('all' as const, 'any' as const),
    linkTypes: fc.subarray(LINKS, { maxLength: 2 }),
  });

  it('each way equals a brute force on random matches and filters, small to all', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(2 ** 31 - 1),
        filters,
        (density, seed, fl) => {
          const { status, ...rest } = fl;
          const q: ProjectQuery = { ...base, ...rest, ...(status && { status }) };
          let x = seed;
          const chosen = ids.filter(() => {
            x = (Math.imul(x, 1103515245) + 12345) >>> 0;
            return x / 2 ** 32 < density;
          });
          const expected = bruteForce(live, new Set(chosen), q);
          expect(facetsOf(q, chosen, () => 'values')).toEqual(expected);
          expect(facetsOf(q, chosen, () => 'documents')).toEqual(expected);
          expect(facetsOf(q, chosen)).toEqual(expected);
          // without q: every document
          expect(facetsOf(q, undefined, () => 'documents')).toEqual(bruteForce(live, undefined, q));
          expect(facetsOf(q, undefined, () => 'values')).toEqual(bruteForce(live, undefined, q));
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each(ALL)("on either side of the threshold where the model's choice for %s flips", (name) => {
    // the smallest prefix of a shuffled directory that the model counts by value
    let x = 7;
    const shuffled = [...ids].sort(() => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 2 ** 32 - 0.5;
    });
    const way = (k: number) => {
      const bits = setOf(shuffled.slice(0, k));
      return cheaperWay(ix, name, bits, k);
    };
    let lo = 0;
    let hi = shuffled.length;
    expect(way(lo)).toBe('documents');
    expect(way(hi)).toBe('values');
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (way(mid) === 'values') hi = mid;
      else lo = mid;
    }
    expect([way(hi - 1), way(hi)]).toEqual(['documents', 'values']);
    for (const k of [hi - 2, hi - 1, hi, hi + 1]) {
      const chosen = shuffled.slice(0, k);
      const expected = bruteForce(live, new Set(chosen), base);
      expect(facetsOf(base, chosen), `${k} matches`).toEqual(expected);
      expect(
        facetsOf(base, chosen, () => 'values'),
        `${k} matches`,
      ).toEqual(expected);
      expect(
        facetsOf(base, chosen, () => 'documents'),
        `${k} matches`,
      ).toEqual(expected);
    }
  });

  it('counts the whole directory as its maintained counts', () => {
    const maintained = index.findProjects({ ...base, facets: ALL }).facets!;
    expect(shown(maintained)).toEqual(bruteForce(live, undefined, base));
    expect(facetsOf(base, ids, () => 'values')).toEqual(shown(maintained));
  });
});
