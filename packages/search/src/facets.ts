import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import { type CompiledFilters, othersOk, tagsOk } from './filters.ts';
import { TOP_TAGS } from './limits.ts';
import { LINK_TYPES, STATUSES, type Store } from './store.ts';
import { compareCodePoints } from './text.ts';
import type { FacetName, ProjectFacets, ValueFacet } from './types.ts';

/*
 * Facets: the maintained counts answer the whole directory; a search or a filtered list
 * counts in one pass over its documents, each facet ignoring its own filter. A search
 * without filters over many matches counts each facet value instead, as the population
 * count of its bitmap AND the matches (as Meilisearch's facet distribution does for many
 * candidates): a cost per value and per 32 documents, not per match and per tag.
 */

/** A set of documents as a facet pass reads it: listed, and tested; and as a bitmap when it is one. */
export interface DocView {
  n: number;
  list: ArrayLike<number>;
  has(d: number): boolean;
  bits?: Bits;
}

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

/**
 * The facets of a set of documents (the matches of q, or every document): each counts those
 * passing every filter but its own, in one pass. When a facet's count is the whole set (no
 * other filter) and the set is most of the directory, it is the maintained count minus a
 * count of the documents outside the set, which are fewer.
 */
export function facetPass(
  cx: SearchContext,
  f: CompiledFilters,
  names: FacetName[],
  set: DocView | undefined,
): ProjectFacets {
  const { ix } = cx;
  const filtered =
    f.status !== 0 ||
    f.tagNums !== undefined ||
    f.linkMask !== 0 ||
    f.source !== undefined ||
    f.updatedAfter !== undefined;
  if (!set?.bits || filtered) return documentFacets(cx, f, names, set);
  const bits = set.bits;
  const byValues = names.filter((name) => valuesCheaper(ix, name, set.n, bits));
  // else tags a match at a time, read off the bitmap (no list of the matches), unless the
  // matches are most of the directory (documentFacets then counts the rest)
  const offBits = names.includes('tags') && !byValues.includes('tags') && set.n <= ix.live / 2;
  if (byValues.length === 0 && !offBits) return documentFacets(cx, f, names, set);
  const counted = bitmapFacets(cx, byValues, bits);
  if (offBits) counted.tags = bitTags(cx, bits);
  const rest = names.filter((name) => counted[name] === undefined);
  const passed = rest.length > 0 ? documentFacets(cx, f, rest, set) : {};
  const out: ProjectFacets = {};
  for (const name of FACET_ORDER) {
    const v = counted[name] ?? passed[name];
    if (v) (out as Record<FacetName, unknown>)[name] = v;
  }
  return out;
}

const FACET_ORDER: FacetName[] = ['status', 'linkTypes', 'tags'];

/** The tags facet of a bitmap's documents, a document at a time in one loop over its words. */
function bitTags(cx: SearchContext, bits: Bits) {
  const { ix } = cx;
  const tagCounts = cx.caches.tagCounts(ix.tags.length);
  const touched: number[] = [];
  const { slab, at, count } = ix.docTags;
  const words = bits.words;
  for (let i = bits.lo; i < bits.hi; i++) {
    let x = words[i]!;
    while (x !== 0) {
      const low = x & -x;
      x ^= low;
      const d = (i << 5) | (31 - Math.clz32(low));
      const to = at[d]! + count[d]!;
      for (let k = at[d]!; k < to; k++) {
        const tag = slab[k]!;
        if (tagCounts[tag]!++ === 0) touched.push(tag);
      }
    }
  }
  const out = tagFacet(cx, touched, (t) => tagCounts[t]!);
  for (const t of touched) tagCounts[t] = 0;
  return out;
}

/** The facets of a set of documents (or all), counted a document at a time. */
function documentFacets(
  cx: SearchContext,
  f: CompiledFilters,
  names: FacetName[],
  set: DocView | undefined,
): ProjectFacets {
  const { ix } = cx;
  const hasStatus = f.status !== 0;
  const hasTags = f.tagNums !== undefined;
  const hasLinks = f.linkMask !== 0;
  const hasOthers = f.source !== undefined || f.updatedAfter !== undefined;
  const size = set ? set.n : ix.live;
  const inverse = size > ix.live / 2 && !hasOthers;
  const wantStatus = names.includes('status');
  const wantLinks = names.includes('linkTypes');
  const wantTags = names.includes('tags');
  // which facets are counted as "maintained minus the rest", which directly
  const statusInv = wantStatus && inverse && !hasTags && !hasLinks;
  const linksInv = wantLinks && inverse && !hasStatus && !hasTags;
  const tagsInv = wantTags && inverse && !hasStatus && !hasLinks;
  const statusCounts = [0, 0, 0];
  const linkCounts = [0, 0, 0, 0];
  const tagCounts = cx.caches.tagCounts(ix.tags.length);
  const touched: number[] = [];
  const { slab, at, count } = ix.docTags;
  const countTags = (d: number) => {
    const to = at[d]! + count[d]!;
    for (let i = at[d]!; i < to; i++) if (tagCounts[slab[i]!]!++ === 0) touched.push(slab[i]!);
  };
  const countLinks = (d: number) => {
    const mask = ix.linkMask[d]!;
    for (let b = 0; b < 4; b++) if (mask & (1 << b)) linkCounts[b]!++;
  };
  if (set && (statusInv || linksInv || tagsInv)) {
    // the documents outside the set
    const status = ix.status;
    for (let d = 0; d < ix.end; d++) {
      if (status[d] === 0 || set.has(d)) continue;
      if (statusInv) statusCounts[ix.status[d]!]!++;
      if (linksInv) countLinks(d);
      if (tagsInv) countTags(d);
    }
  }
  const direct = (wantStatus && !statusInv) || (wantLinks && !linksInv) || (wantTags && !tagsInv);
  if (direct && set && !hasStatus && !hasTags && !hasLinks && !hasOthers) {
    // a search without filters (the common case): one tight pass over the matches
    const cs = wantStatus && !statusInv;
    const cl = wantLinks && !linksInv;
    const ct = wantTags && !tagsInv;
    const { list, n } = set;
    const status = ix.status;
    const linkMask = ix.linkMask;
    let l0 = 0;
    let l1 = 0;
    let l2 = 0;
    let l3 = 0;
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
    linkCounts[0]! += l0;
    linkCounts[1]! += l1;
    linkCounts[2]! += l2;
    linkCounts[3]! += l3;
  } else if (direct) {
    const visit = (d: number) => {
      if (hasOthers && !othersOk(ix, f, d)) return;
      const s = !hasStatus || ix.status[d] === f.status;
      const t = !hasTags || tagsOk(ix, f, d);
      const l = !hasLinks || (ix.linkMask[d]! & f.linkMask) === f.linkMask;
      if (wantStatus && !statusInv && t && l) statusCounts[ix.status[d]!]!++;
      if (wantLinks && !linksInv && s && t) countLinks(d);
      if (wantTags && !tagsInv && s && l) countTags(d);
    };
    if (set) {
      const { list, n } = set;
      for (let i = 0; i < n; i++) visit(list[i]!);
    } else for (let d = 0; d < ix.end; d++) if (ix.isLive(d)) visit(d);
  }
  const out: ProjectFacets = {};
  if (wantStatus)
    out.status = valueFacet(
      STATUSES.map((v, i) => [
        v,
        statusInv ? ix.statusCount[i + 1]! - statusCounts[i + 1]! : statusCounts[i + 1]!,
      ]),
    );
  if (wantLinks)
    out.linkTypes = valueFacet(
      LINK_TYPES.map((v, i) => [v, linksInv ? ix.linkCount[i]! - linkCounts[i]! : linkCounts[i]!]),
    );
  if (wantTags) {
    if (tagsInv) {
      const nums: number[] = [];
      for (let t = 0; t < ix.tags.length; t++)
        if (ix.tags[t] && ix.tagCount[t]! - tagCounts[t]! > 0) nums.push(t);
      out.tags = tagFacet(cx, nums, (t) => ix.tagCount[t]! - tagCounts[t]!);
    } else out.tags = tagFacet(cx, touched, (t) => tagCounts[t]!);
  }
  for (const t of touched) tagCounts[t] = 0;
  return out;
}

/**
 * Whether counting a facet by values (bitmapFacets) costs less than its share of a pass over
 * the matches: a step per word of the matches' range for each status or link type, and for
 * each tag a word step per word (a dense tag) or a step per document (a sparse one); the pass
 * a step per match (status, link types) or per tag of each match (tags).
 */
function valuesCheaper(ix: Store, name: FacetName, n: number, bits: Bits): boolean {
  const words = bits.hi - bits.lo;
  if (name === 'status') return 2 * words < n;
  if (name === 'linkTypes') return 4 * words < n;
  let values = 0;
  let assigned = 0;
  for (let t = 0; t < ix.tags.length; t++) {
    if (!ix.tags[t] || ix.tagCount[t]! === 0) continue;
    assigned += ix.tagCount[t]!;
    values += ix.tagDocs.countCost(t, bits.words.length);
  }
  return ix.live > 0 && values < (n * assigned) / ix.live;
}

/** The facets of a set of documents without filters, a value at a time (bitmap ∩ value, counted). */
export function bitmapFacets(cx: SearchContext, names: FacetName[], bits: Bits): ProjectFacets {
  const { ix } = cx;
  const out: ProjectFacets = {};
  if (names.includes('status'))
    out.status = valueFacet(STATUSES.map((v, i) => [v, bits.countAnd(ix.statusBits[i + 1]!)]));
  if (names.includes('linkTypes'))
    out.linkTypes = valueFacet(LINK_TYPES.map((v, i) => [v, bits.countAnd(ix.linkBits[i]!)]));
  if (names.includes('tags')) {
    const nums: number[] = [];
    const counts = new Map<number, number>();
    for (let t = 0; t < ix.tags.length; t++) {
      if (!ix.tags[t] || ix.tagCount[t]! === 0) continue;
      const c = ix.tagDocs.countIn(t, bits);
      if (c === 0) continue;
      nums.push(t);
      counts.set(t, c);
    }
    out.tags = tagFacet(cx, nums, (t) => counts.get(t)!);
  }
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
