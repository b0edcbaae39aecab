import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import { type CompiledFilters, filterSet, noFilters } from './filters.ts';
import { TOP_TAGS } from './limits.ts';
import { LINK_TYPES, STATUSES, type Store } from './store.ts';
import { compareCodePoints } from './text.ts';
import type { FacetName, ProjectFacets, ValueFacet } from './types.ts';

/*
 * Facets (docs/search.md#facets), one cost model. Each facet counts its documents: the
 * matches of q (or every document) that pass every filter but the facet's own. When those
 * are the whole directory the maintained counts answer. Else the facet is counted one of two
 * ways, whichever the model says costs less:
 *
 * - by value: each value's count is the population count of its bitmap AND the documents (a
 *   status, a link type, a tag holding a project per 32), or the bit tests of its posting list
 *   (a sparser tag): VALUE_WORD_STEPS document steps per word of the documents' range per
 *   value, or a step per posting;
 * - by document: the documents are listed and each adds to its status, its link types and
 *   its tags: a step per document, plus a step per tag of each for the tags facet.
 *
 * Both give the same counts (facets.test.ts compares both with a brute force, on either side
 * of the threshold too). Facets whose documents are the same set share it, and those counted
 * by document share one walk.
 */

/**
 * What a word of a bitmap AND-ed and counted costs, in steps of the walk over documents, as
 * measured by bench/facets.ts (bench/RESULTS.md as of commit 523d715, "Facets: the cost model's threshold"; the
 * crossover in docs/search.md#facets): 0.21–0.26 at 100,000 projects. So status (2 values)
 * is counted by value from about 1 match in 64 of the directory (n > 2 × 0.25 × directory / 32),
 * link types (4 values) from 1 in 32; the tags facet, mostly sparse lists, near the whole.
 */
export const VALUE_WORD_STEPS = 0.25;

export type FacetWay = 'values' | 'documents';

/** What counting facet `name` over `docs` costs each way, in steps (the model above). */
export function facetCosts(ix: Store, name: FacetName, docs: Bits, n: number): Record<FacetWay, number> {
  const words = Math.max(0, docs.hi - docs.lo);
  if (name === 'status') return { values: STATUSES.length * words * VALUE_WORD_STEPS, documents: n };
  if (name === 'linkTypes') return { values: LINK_TYPES.length * words * VALUE_WORD_STEPS, documents: n };
  const total = docs.words.length;
  let values = 0;
  let assigned = 0;
  for (let t = 0; t < ix.tags.length; t++) {
    if (!ix.tags[t] || ix.tagCount[t]! === 0) continue;
    assigned += ix.tagCount[t]!;
    const cost = ix.tagDocs.countCost(t, total);
    values += cost < total ? cost : words * VALUE_WORD_STEPS;
  }
  return { values, documents: ix.live > 0 ? n + (n * assigned) / ix.live : n };
}

/** The model's choice: the cheaper way (by document when they tie). */
export function cheaperWay(ix: Store, name: FacetName, docs: Bits, n: number): FacetWay {
  const cost = facetCosts(ix, name, docs, n);
  return cost.values < cost.documents ? 'values' : 'documents';
}

/**
 * The facets `names` of `matches` (a search's matches before its filters; undefined: every
 * document), each past the filters but its own. `choose` picks each facet's way (the cost
 * model; a test forces one).
 */
export function countFacets(
  cx: SearchContext,
  f: CompiledFilters,
  names: FacetName[],
  matches: Bits | undefined,
  choose: typeof cheaperWay = cheaperWay,
): ProjectFacets {
  const counted: ProjectFacets = {};
  // facets with the same documents: those whose own filter is not set share the full filters'
  const groups = new Map<string, FacetName[]>();
  for (const name of names) {
    const key = ownFilterSet(f, name) ? name : 'all';
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  for (const [key, group] of groups) {
    const others = key === 'all' ? f : without(f, key as FacetName);
    if (noFilters(others) && !matches) {
      Object.assign(counted, maintainedFacets(cx, group));
      continue;
    }
    const docs = noFilters(others) ? matches! : filterSet(cx, others, matches);
    const n = docs.count();
    const walk: FacetName[] = [];
    for (const name of group) {
      if (choose(cx.ix, name, docs, n) === 'values') Object.assign(counted, facetsByValue(cx, [name], docs));
      else walk.push(name);
    }
    if (walk.length > 0) Object.assign(counted, facetsByDocument(cx, walk, docs, n));
  }
  const out: ProjectFacets = {};
  for (const name of FACET_ORDER) {
    const v = counted[name];
    if (v) (out as Record<FacetName, unknown>)[name] = v;
  }
  return out;
}

const FACET_ORDER: FacetName[] = ['status', 'linkTypes', 'tags'];

const ownFilterSet = (f: CompiledFilters, name: FacetName) =>
  name === 'status' ? f.status !== 0 : name === 'linkTypes' ? f.linkMask !== 0 : f.tagNums !== undefined;

/** The filters but facet `name`'s own. */
function without(f: CompiledFilters, name: FacetName): CompiledFilters {
  if (name === 'status') return { ...f, status: 0 };
  if (name === 'linkTypes') return { ...f, linkMask: 0 };
  return { ...f, tagNums: undefined, tagsImpossible: false };
}

/** The whole directory's facets: the counts every write keeps. */
export function maintainedFacets(cx: SearchContext, names: FacetName[]): ProjectFacets {
  const { ix } = cx;
  const out: ProjectFacets = {};
  if (names.includes('status')) out.status = valueFacet(STATUSES.map((s, i) => [s, ix.statusCount[i + 1]!]));
  if (names.includes('linkTypes'))
    out.linkTypes = valueFacet(LINK_TYPES.map((t, i) => [t, ix.linkCount[i]!]));
  if (names.includes('tags')) {
    const nums: number[] = [];
    for (let t = 0; t < ix.tags.length; t++) if (ix.tags[t] && ix.tagCount[t]! > 0) nums.push(t);
    out.tags = tagFacet(cx, nums, (t) => ix.tagCount[t]!);
  }
  return out;
}

/** By value: each value's documents AND `docs`, counted (a bitmap's words, or a sparse list's bit tests). */
export function facetsByValue(cx: SearchContext, names: FacetName[], docs: Bits): ProjectFacets {
  const { ix } = cx;
  const out: ProjectFacets = {};
  if (names.includes('status'))
    out.status = valueFacet(STATUSES.map((v, i) => [v, docs.countAnd(ix.statusBits[i + 1]!)]));
  if (names.includes('linkTypes'))
    out.linkTypes = valueFacet(LINK_TYPES.map((v, i) => [v, docs.countAnd(ix.linkBits[i]!)]));
  if (names.includes('tags')) {
    const nums: number[] = [];
    const counts = new Map<number, number>();
    for (let t = 0; t < ix.tags.length; t++) {
      if (!ix.tags[t] || ix.tagCount[t]! === 0) continue;
      const c = ix.tagDocs.countIn(t, docs);
      if (c === 0) continue;
      nums.push(t);
      counts.set(t, c);
    }
    out.tags = tagFacet(cx, nums, (t) => counts.get(t)!);
  }
  return out;
}

/** By document: `docs` listed (n of them), each adding to its status, link types and tags, in one walk. */
export function facetsByDocument(
  cx: SearchContext,
  names: FacetName[],
  docs: Bits,
  n: number,
): ProjectFacets {
  const { ix } = cx;
  const list = cx.docList(n);
  docs.toList(list);
  const cs = names.includes('status');
  const cl = names.includes('linkTypes');
  const ct = names.includes('tags');
  const statusCounts = [0, 0, 0];
  let l0 = 0;
  let l1 = 0;
  let l2 = 0;
  let l3 = 0;
  const tagCounts = cx.caches.tagCounts(ix.tags.length);
  const touched: number[] = [];
  const { status, linkMask } = ix;
  const { slab, at, count } = ix.docTags;
  for (let i = 0; i < n; i++) {
    const d = list[i]!;
    if (cs) statusCounts[status[d]!]!++;
    if (cl) {
      const m = linkMask[d]!;
      l0 += m & 1;
      l1 += (m >> 1) & 1;
      l2 += (m >> 2) & 1;
      l3 += (m >> 3) & 1;
    }
    if (ct) {
      const to = at[d]! + count[d]!;
      for (let k = at[d]!; k < to; k++) {
        const tag = slab[k]!;
        if (tagCounts[tag]!++ === 0) touched.push(tag);
      }
    }
  }
  const out: ProjectFacets = {};
  if (cs) out.status = valueFacet(STATUSES.map((v, i) => [v, statusCounts[i + 1]!]));
  if (cl) {
    const links = [l0, l1, l2, l3];
    out.linkTypes = valueFacet(LINK_TYPES.map((v, i) => [v, links[i]!]));
  }
  if (ct) out.tags = tagFacet(cx, touched, (t) => tagCounts[t]!);
  for (const t of touched) tagCounts[t] = 0;
  return out;
}

/** The top tags by count, ties by slug (compared as ranks in slug order, kept while no tag changes). */
export function tagFacet(cx: SearchContext, nums: number[], count: (t: number) => number) {
  const { ix } = cx;
  const rank = cx.caches.slugRank(ix.tagChanges, () => {
    const order = [];
    for (let t = 0; t < ix.tags.length; t++) if (ix.tags[t]) order.push(t);
    order.sort((a, b) => compareCodePoints(ix.tags[a]!.slug, ix.tags[b]!.slug));
    const ranks = new Int32Array(ix.tags.length);
    order.forEach((t, i) => {
      ranks[t] = i;
    });
    return ranks;
  });
  const counts = new Int32Array(ix.tags.length);
  for (const t of nums) counts[t] = count(t);
  const top = nums.sort((a, b) => counts[b]! - counts[a]! || rank[a]! - rank[b]!).slice(0, TOP_TAGS);
  return top.map((t) => {
    const tag = ix.tags[t]!;
    return { slug: tag.slug, name: tag.name, nameEn: tag.nameEn, count: counts[t]! };
  });
}

export function valueFacet(pairs: [string, number][]): ValueFacet[] {
  return pairs
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
    .map(([value, count]) => ({ value, count }));
}
