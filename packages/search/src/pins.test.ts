import { describe, expect, it } from 'vitest';
import { PIN_SCORE, pinQuery } from './pins.ts';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { ProjectQuery } from './types.ts';

// Curated results (docs/search.md#curated-results-pins) over the sample projects.
const { projects, tags } = toIndexed(SAMPLE);
const slugs = projects.map((p) => p.slug);

function fresh() {
  const index = new SearchIndex();
  index.putTags(tags);
  index.put(projects);
  return index;
}

const slugOfId = new Map(projects.map((p) => [p.id, p.slug]));
const page = (index: SearchIndex, q: Partial<ProjectQuery> & { q: string }) =>
  index.findProjects({ ...BASE_QUERY, ...q });
const slugsOf = (hits: { id: string }[]) => hits.map((h) => slugOfId.get(h.id)!);

/** Every page of a query by its cursors, `limit` a page. */
function walk(index: SearchIndex, q: string, limit: number, more: Partial<ProjectQuery> = {}) {
  const out: string[] = [];
  let after: ProjectQuery['after'];
  for (let i = 0; i < 100; i++) {
    const r = page(index, { q, limit, ...more, ...(after && { after }) });
    const shown = r.hits.slice(0, limit);
    out.push(...slugsOf(shown));
    if (r.hits.length <= limit) return { slugs: out, total: r.total };
    const last = shown[shown.length - 1]!;
    after = { key: last.key, id: last.id };
  }
  throw new Error('no end');
}

describe('pins (docs/search.md#curated-results-pins)', () => {
  const q = '模型';
  const plain = walk(fresh(), q, 100);
  // two projects that match the query, and one that does not
  const [a, b] = [plain.slugs[5]!, plain.slugs[2]!];
  const unmatched = slugs.find((s) => !plain.slugs.includes(s))!;

  it('normalises a query as search does', () => {
    expect(pinQuery('  GPT-4o   Mini ')).toBe('gpt 4o mini');
    expect(pinQuery('大模型')).toBe(pinQuery('大模型 '));
  });

  it('puts the first ones first, in order, even one that does not match; hides the hidden', () => {
    const index = fresh();
    const hidden = plain.slugs[0]!;
    index.setPins([{ query: ` ${q} `, first: [b, unmatched, a], hide: [hidden] }]);
    const r = page(index, { q, limit: 5 });
    expect(slugsOf(r.hits).slice(0, 3)).toEqual([b, unmatched, a]);
    expect(r.hits[0]!.match!.score).toBe(PIN_SCORE);
    expect(r.hits[1]!.match).toMatchObject({ field: 'name', typos: 0 });
    const all = walk(index, q, 3);
    expect(all.slugs).not.toContain(hidden);
    expect(all.slugs.slice(0, 3)).toEqual([b, unmatched, a]);
    // every other match once, in the order it had
    expect(all.slugs.slice(3)).toEqual(plain.slugs.filter((s) => ![a, b, hidden].includes(s)));
    expect(new Set(all.slugs).size).toBe(all.slugs.length);
    // total counts what is shown
    expect(all.total).toBe(all.slugs.length);
    expect(all.total).toBe(plain.total - 1 + 1);
  });

  it('pages through the pinned ones and on, for every page size', () => {
    const index = fresh();
    index.setPins([{ query: q, first: [b, unmatched, a], hide: [] }]);
    const one = walk(index, q, 100).slugs;
    for (const limit of [1, 2, 3, 4, 7]) expect(walk(index, q, limit).slugs).toEqual(one);
  });

  it('leaves out a pinned project the filters exclude, or one removed', () => {
    const index = fresh();
    index.setPins([{ query: q, first: [unmatched, a], hide: [] }]);
    const aProject = projects.find((p) => p.slug === a)!;
    const other = aProject.status === 'ACTIVE' ? 'ARCHIVED' : 'ACTIVE';
    const filtered = walk(index, q, 100, { status: other });
    expect(filtered.slugs).not.toContain(a);
    index.remove([aProject.id]);
    const after = walk(index, q, 100);
    expect(after.slugs).not.toContain(a);
    expect(after.slugs[0]).toBe(unmatched);
    expect(after.total).toBe(after.slugs.length);
  });

  it('applies to relevance only, and to a query with no match at all', () => {
    const index = fresh();
    index.setPins([{ query: 'zzqqxx', first: [a], hide: [] }]);
    expect(slugsOf(page(index, { q: 'ZZQQXX', limit: 5 }).hits)).toEqual([a]);
    expect(page(index, { q: 'zzqqxx', sort: 'name', order: 'asc', limit: 5 }).hits).toEqual([]);
    index.setPins([]);
    expect(page(index, { q: 'zzqqxx', limit: 5 }).hits).toEqual([]);
  });
});
