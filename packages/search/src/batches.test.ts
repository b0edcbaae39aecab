import { describe, expect, it } from 'vitest';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { IndexedProject, ProjectQuery } from './types.ts';

/*
 * A directory put in batches as a build puts it (more than 1,000 projects at a time: postings
 * added by term, the orders sorted at once or left for prepare), then written one project at
 * a time, answers every query as the same directory put one project at a time.
 */

const N = 2600;
const samples = Array.from({ length: N }, (_, i) => {
  const s = SAMPLE[i % SAMPLE.length]!;
  return {
    ...s,
    name: `${s.name} ${i % 7 === 0 ? 'model' : 'agent'} ${i}`,
    nameEn: s.nameEn ? `${s.nameEn} ${i}` : undefined,
  };
});
const { projects, tags } = toIndexed(samples, (i) => `p${((i * 7919) % N).toString(36).padStart(5, '0')}`);
// other times than ids' order
for (const [i, p] of projects.entries()) p.updatedAt = p.createdAt + ((i * 104729) % 997) * 1000;

const base: ProjectQuery = { ...BASE_QUERY, limit: 50 };
const queries: Partial<ProjectQuery>[] = [
  { q: 'model' },
  { q: '模型' },
  { q: 'agent', sort: 'name', order: 'asc' },
  { q: 'modle' },
  { q: 'mo', facets: ['tags', 'status', 'linkTypes'] },
  { sort: 'updated' },
  { sort: 'name', order: 'asc', facets: ['tags'] },
  { sort: 'created', status: 'ACTIVE', tagSlugs: [tags[0]!.slug] },
];

function pages(index: SearchIndex, q: Partial<ProjectQuery>) {
  const out = [];
  let query: ProjectQuery = { ...base, ...q };
  for (let page = 0; page < 4; page++) {
    const r = index.findProjects(query);
    out.push(r);
    const last = r.hits[query.limit - 1];
    if (!last || r.hits.length <= query.limit) break;
    query = { ...query, after: { key: last.key, id: last.id } };
  }
  return out;
}

describe('a directory put in batches', () => {
  it('answers as one put a project at a time, before and after single writes', () => {
    const batched = new SearchIndex();
    const single = new SearchIndex();
    batched.putTags(tags);
    single.putTags(tags);
    for (let i = 0; i < N; i += 1300) batched.put(projects.slice(i, i + 1300));
    batched.prepare();
    for (const p of projects) single.put([p]);
    for (const q of queries) expect(pages(batched, q)).toEqual(pages(single, q));
    // then writes one at a time (renames move a project in the orders), and removals
    const renamed: IndexedProject[] = projects
      .slice(0, 40)
      .map((p, i) => ({ ...p, name: `${p.name} renamed ${i}`, updatedAt: p.updatedAt + 5_000_000 }));
    for (const p of renamed) {
      batched.put([p]);
      single.put([p]);
    }
    batched.remove(projects.slice(100, 120).map((p) => p.id));
    single.remove(projects.slice(100, 120).map((p) => p.id));
    // a later batch of updates and new projects, left unordered until a query
    // (new projects fewer than an eighth of the directory: they go into the orders one by one)
    const fresh = projects.slice(0, 150).map((p, i) => ({ ...p, id: `q${i}`, slug: `${p.slug}-new` }));
    const later = [
      ...projects.slice(200, 1100).map((p) => ({ ...p, updatedAt: p.updatedAt + 9_000_000 })),
      ...fresh,
    ];
    batched.put(later);
    for (const p of later) single.put([p]);
    for (const q of queries) expect(pages(batched, q)).toEqual(pages(single, q));
  });
});
