import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bits } from './bitmap.ts';
import { QueryCaches } from './caches.ts';
import { SearchContext } from './context.ts';
import { bitmapFacets, facetPass } from './facets.ts';
import { compileFilters } from './filters.ts';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { FacetName, LinkType, ProjectQuery } from './types.ts';

/*
 * The two ways a search counts its facets give the same counts: a pass over the matches (and
 * its "maintained minus the rest" variant for most of the directory), and a population count
 * of each value's bitmap AND the matches, on random sets of matches of a directory written
 * in a build, then one project at a time (updates, removals, reused document numbers).
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

const base: ProjectQuery = { ...BASE_QUERY, limit: 20 };
const ALL: FacetName[] = ['tags', 'status', 'linkTypes'];

describe('facet counts by values and by documents', () => {
  const index = new SearchIndex();
  index.putTags(tags);
  index.put(projects);
  // single writes after the build: a removal, a changed project, a reused number
  index.remove(projects.slice(0, 300).map((p) => p.id));
  index.put(
    projects.slice(300, 600).map((p, i) => ({
      ...p,
      status: p.status === 'ACTIVE' ? 'ARCHIVED' : 'ACTIVE',
      linkTypes: LINKS.slice(i % 4),
      tagIds: tags.slice(i % 7, (i % 7) + 3).map((t) => t.id),
    })),
  );
  index.put(projects.slice(0, 100).map((p) => ({ ...p, id: `${p.id}-again` })));
  index.prepare();
  const live = [...index.store.docOf.values()].sort((a, b) => a - b);
  const f = compileFilters(index.store, base);
  const cx = new SearchContext(index.store, new QueryCaches());

  it('gives the same counts on random sets of matches, small to all', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(2 ** 31 - 1),
        fc.subarray(ALL, { minLength: 1 }),
        (density, seed, names) => {
          const bits = new Bits((index.store.end + 31) >>> 5);
          let x = seed;
          for (const d of live) {
            x = (Math.imul(x, 1103515245) + 12345) >>> 0;
            if (x / 2 ** 32 < density) bits.add(d);
          }
          const list = new Uint32Array(live.length);
          const n = bits.toList(list);
          const docs = facetPass(cx, f, names, { n, list, has: (d) => bits.has(d) });
          expect(bitmapFacets(cx, names, bits)).toEqual(docs);
          // and whichever the engine chooses
          expect(facetPass(cx, f, names, { n, list, has: (d) => bits.has(d), bits })).toEqual(docs);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('counts every value of the whole directory as its maintained count', () => {
    const bits = new Bits((index.store.end + 31) >>> 5);
    bits.addList(live, live.length);
    expect(bitmapFacets(cx, ALL, bits)).toEqual(
      index.findProjects({ ...base, sort: 'updated', facets: ALL }).facets,
    );
  });
});
