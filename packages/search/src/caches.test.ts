import { describe, expect, it } from 'vitest';
import { QueryCaches } from './caches.ts';
import { CACHE_ENTRIES } from './limits.ts';
import { BASE_QUERY } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';

/* The caches that outlive a query (caches.ts): bounded, and never an answer older than the tags. */

describe('the caches of the queries', () => {
  it(`keeps at most ${CACHE_ENTRIES} tag matches, the least recently used out`, () => {
    const caches = new QueryCaches();
    let computed = 0;
    const get = (key: string) =>
      caches.tagMatches(1, key, () => {
        computed++;
        return { tags: [], typos: [] };
      });
    for (let i = 0; i <= CACHE_ENTRIES; i++) get(`w${i}`);
    expect(caches.tagMatchesKept).toBe(CACHE_ENTRIES);
    expect(computed).toBe(CACHE_ENTRIES + 1);
    // w0 went out (least recently used), w1 is kept
    get('w1');
    expect(computed).toBe(CACHE_ENTRIES + 1);
    get('w0');
    expect(computed).toBe(CACHE_ENTRIES + 2);
    expect(caches.tagMatchesKept).toBe(CACHE_ENTRIES);
  });

  it('forgets the tag matches and the slug order when the tags change', () => {
    const caches = new QueryCaches();
    const m = caches.tagMatches(1, 'x', () => ({ tags: [1], typos: [0] }));
    expect(caches.tagMatches(1, 'x', () => ({ tags: [2], typos: [0] }))).toBe(m);
    expect(caches.tagMatches(2, 'x', () => ({ tags: [2], typos: [0] })).tags).toEqual([2]);
    expect(caches.tagMatchesKept).toBe(1);
    const a = caches.slugRank(1, () => new Int32Array([0, 1]));
    expect(caches.slugRank(1, () => new Int32Array([1, 0]))).toBe(a);
    expect([...caches.slugRank(2, () => new Int32Array([1, 0]))]).toEqual([1, 0]);
  });

  it('answers a tag renamed after a query by its new name', () => {
    const index = new SearchIndex();
    const tag = { id: 't1', name: 'alpha', nameEn: null, slug: 'alpha' };
    index.putTags([tag]);
    index.put([
      {
        id: 'p1',
        name: 'one',
        nameEn: null,
        slug: 'one',
        description: 'a project',
        descriptionEn: null,
        status: 'ACTIVE',
        source: null,
        createdAt: 1,
        updatedAt: 1,
        tagIds: ['t1'],
        linkTypes: [],
      },
    ]);
    const find = (q: string) => index.findProjects({ ...BASE_QUERY, q, facets: ['tags'] });
    expect(find('alpha').total).toBe(1);
    index.putTags([{ ...tag, name: 'omega', slug: 'omega' }]);
    expect(find('alpha').total).toBe(0);
    expect(find('omega').facets!.tags!.map((t) => t.slug)).toEqual(['omega']);
  });
});
