import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_TAGS, op, project, projectQuery, SYNONYM_SETS } from './property-generators.test-support.ts';
import { Reference } from './property-reference.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { tokens } from './text.ts';
import type { ProjectHit, ProjectQuery } from './types.ts';

/*
 * The property: for random projects (the samples, mutated), random updates and removals, and
 * random queries, filters, sorts and page sizes, walking every page by cursor returns exactly
 * what a brute force over all projects returns, in order; totals and facet counts equal a
 * brute-force count. The brute force (property-reference.test-support.ts) applies the rules
 * (docs/search.md#how-matching-works, docs/search.md#search-as-a-search-engine, the scores of
 * ranking.ts) plainly: every project, every token, a full edit-distance matrix
 * (property-typos.test-support.ts). The generators are in property-generators.test-support.ts.
 */

// ——————————————————————————————————————————— the property

/** What the checks saw (so that a generator producing nothing interesting is noticed). */
const seen = { queries: 0, hits: 0, typoHits: 0, synonymHits: 0, pages: 0 };

function check(index: SearchIndex, ref: Reference, q: ProjectQuery) {
  seen.queries++;
  const label = JSON.stringify(q);
  if (q.sort === 'relevance' && q.q === undefined) q = { ...q, sort: 'updated' };
  const { list, total } = ref.ordered(q);
  const expected = list.filter((x) => q.asOf === undefined || x.p.updatedAt <= q.asOf);
  const walked: ProjectHit[] = [];
  let after: ProjectQuery['after'];
  let first = true;
  for (let pages = 0; pages < 200; pages++) {
    const r = index.findProjects({ ...q, after, facets: first ? ['tags', 'status', 'linkTypes'] : [] });
    expect(r.total, label).toBe(total);
    if (first) {
      const f = ref.facets(q);
      expect(new Map(r.facets!.status!.map((x) => [x.value, x.count])), label).toEqual(f.status);
      expect(new Map(r.facets!.linkTypes!.map((x) => [x.value, x.count])), label).toEqual(f.linkTypes);
      expect(new Map(r.facets!.tags!.map((x) => [x.slug, x.count])), label).toEqual(f.tags);
      first = false;
    }
    expect(r.hits.length, label).toBeLessThanOrEqual(q.limit + 1);
    const page = r.hits.slice(0, q.limit);
    seen.pages++;
    seen.hits += page.length;
    seen.typoHits += page.filter((h) => (h.match?.typos ?? 0) > 0).length;
    seen.synonymHits += page.filter((h) => (h.match?.score ?? 0) % 20 === 19).length;
    walked.push(...page);
    if (r.hits.length <= q.limit) break;
    const last = page[page.length - 1]!;
    after = { key: last.key, id: last.id };
  }
  expect(
    walked.map((h) => h.id),
    label,
  ).toEqual(expected.map((x) => x.p.id));
  expect(
    walked.map((h) => h.key),
    label,
  ).toEqual(expected.map((x) => x.key));
  if (q.q !== undefined)
    expect(
      walked.map((h) => [h.match!.score, h.match!.typos]),
      label,
    ).toEqual(expected.map((x) => [x.score, x.typos]));
}

describe('search property', () => {
  it('pages walked by cursor, totals and facets equal a brute force, through updates and removals', () => {
    fc.assert(
      fc.property(
        fc.array(project, { minLength: 5, maxLength: 40 }),
        fc.subarray(SYNONYM_SETS),
        fc.array(op, { minLength: 10, maxLength: 30 }),
        (initial, synonyms, ops) => {
          const index = new SearchIndex();
          const ref = new Reference();
          index.setSynonyms(synonyms);
          ref.synonyms = synonyms.map((set) => set.map((t) => tokens(t)));
          const tags = BASE_TAGS.map((t) => ({ ...t }));
          index.putTags(tags);
          for (const t of tags) ref.tags.set(t.id, t);
          index.put(initial);
          for (const p of initial) ref.projects.set(p.id, p);
          for (const o of ops) {
            const ids = [...ref.projects.keys()];
            if (o.kind === 'query') check(index, ref, o.q);
            else if (o.kind === 'put') {
              index.put([o.p]);
              ref.projects.set(o.p.id, o.p);
            } else if (o.kind === 'update' && ids.length > 0) {
              const id = ids[o.at % ids.length]!;
              const old = ref.projects.get(id)!;
              const text = o.keepText && {
                name: old.name,
                nameEn: old.nameEn,
                slug: old.slug,
                description: old.description,
                descriptionEn: old.descriptionEn,
              };
              const p = { ...o.p, ...text, id };
              index.put([p]);
              ref.projects.set(p.id, p);
            } else if (o.kind === 'remove' && ids.length > 0) {
              const id = ids[o.at % ids.length]!;
              index.remove([id]);
              ref.projects.delete(id);
            } else if (o.kind === 'synonyms') {
              index.setSynonyms(o.sets);
              ref.synonyms = o.sets.map((set) => set.map((t) => tokens(t)));
            } else if (o.kind === 'renameTag') {
              const t = tags[o.at % tags.length]!;
              const renamed = { ...t, nameEn: o.nameEn };
              index.putTags([renamed]);
              ref.tags.set(t.id, renamed);
            }
          }
          expect(index.stats().projects).toBe(ref.projects.size);
        },
      ),
      { numRuns: 30 },
    );
    expect(seen.typoHits).toBeGreaterThan(0);
    expect(seen.synonymHits).toBeGreaterThan(0);
    expect(seen.pages).toBeGreaterThan(seen.queries);
  });

  it('a cursor resumes exactly after its (key, id) while projects are written and removed between pages', () => {
    fc.assert(
      fc.property(
        fc.array(project, { minLength: 10, maxLength: 40 }),
        projectQuery,
        fc.array(
          fc.oneof(
            project.map((p) => ({ p, remove: false as const })),
            fc.nat().map((at) => ({ at, remove: true as const })),
          ),
          {
            maxLength: 12,
          },
        ),
        (initial, q0, writes) => {
          const q: ProjectQuery = {
            ...q0,
            sort: q0.sort === 'relevance' && q0.q === undefined ? 'name' : q0.sort,
            asOf: undefined,
            facets: [],
          };
          const index = new SearchIndex();
          const ref = new Reference();
          index.putTags(BASE_TAGS);
          for (const t of BASE_TAGS) ref.tags.set(t.id, t);
          index.put(initial);
          for (const p of initial) ref.projects.set(p.id, p);
          let after: ProjectQuery['after'];
          for (let w = 0; w <= writes.length; w++) {
            const r = index.findProjects({ ...q, after });
            const { list, cmp } = ref.ordered(q);
            const rest = after ? list.filter((x) => cmp(x.key, x.p.id, after!.key, after!.id) > 0) : list;
            expect(r.hits.map((h) => h.id)).toEqual(rest.slice(0, q.limit + 1).map((x) => x.p.id));
            if (r.hits.length <= q.limit) break;
            const last = r.hits[q.limit - 1]!;
            after = { key: last.key, id: last.id };
            const write = writes[w];
            if (!write) continue;
            if (write.remove) {
              // often the cursor's own project
              const ids = [...ref.projects.keys()];
              const id = write.at % 2 === 0 ? last.id : ids[write.at % ids.length]!;
              index.remove([id]);
              ref.projects.delete(id);
            } else {
              index.put([write.p]);
              ref.projects.set(write.p.id, write.p);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
