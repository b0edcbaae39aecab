import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import { LINK_TYPES, type Store, UNKNOWN_SOURCE } from './store.ts';
import type { ProjectQuery } from './types.ts';

/*
 * The filters of a query (status, tags all/any, link types, source, updatedAfter), compiled
 * once; a query's filters are a bitmap (filterSet), a facet's pass past its own filter tests
 * them per document.
 */

export interface CompiledFilters {
  status: number;
  tagNums: number[] | undefined;
  /** True when a tag slug of an `all` filter is unknown: nothing matches. */
  tagsImpossible: boolean;
  tagMode: 'all' | 'any';
  linkMask: number;
  source: number | undefined;
  updatedAfter: number | undefined;
}

export function compileFilters(ix: Store, q: ProjectQuery): CompiledFilters {
  let tagNums: number[] | undefined;
  let tagsImpossible = false;
  if (q.tagSlugs.length > 0) {
    tagNums = [];
    for (const slug of new Set(q.tagSlugs)) {
      const num = ix.tagBySlug.get(slug);
      if (num === undefined) tagsImpossible ||= q.tagMode === 'all';
      else tagNums.push(num);
    }
    if (tagNums.length === 0) tagsImpossible = true;
  }
  let linkMask = 0;
  for (const t of q.linkTypes) linkMask |= 1 << LINK_TYPES.indexOf(t);
  return {
    status: q.status === undefined ? 0 : q.status === 'ARCHIVED' ? 2 : 1,
    tagNums,
    tagsImpossible,
    tagMode: q.tagMode,
    linkMask,
    source: q.source === undefined ? undefined : (ix.sourceIds.get(q.source) ?? UNKNOWN_SOURCE),
    updatedAfter: q.updatedAfter,
  };
}

export function statusOk(ix: Store, f: CompiledFilters, d: number): boolean {
  return f.status === 0 || ix.status[d] === f.status;
}

export function tagsOk(ix: Store, f: CompiledFilters, d: number): boolean {
  if (!f.tagNums) return true;
  if (f.tagsImpossible) return false;
  const { slab, at, count } = ix.docTags;
  const from = at[d]!;
  const to = from + count[d]!;
  const has = (t: number) => {
    for (let i = from; i < to; i++) if (slab[i] === t) return true;
    return false;
  };
  if (f.tagMode === 'any') {
    for (const t of f.tagNums) if (has(t)) return true;
    return false;
  }
  for (const t of f.tagNums) if (!has(t)) return false;
  return true;
}

export function linksOk(ix: Store, f: CompiledFilters, d: number): boolean {
  return (ix.linkMask[d]! & f.linkMask) === f.linkMask;
}

export function othersOk(ix: Store, f: CompiledFilters, d: number): boolean {
  if (f.source !== undefined && ix.sourceOf[d] !== f.source) return false;
  if (f.updatedAfter !== undefined && !(ix.updated[d]! > f.updatedAfter)) return false;
  return true;
}

export function allOk(ix: Store, f: CompiledFilters, d: number): boolean {
  return statusOk(ix, f, d) && tagsOk(ix, f, d) && linksOk(ix, f, d) && othersOk(ix, f, d);
}

export function noFilters(f: CompiledFilters): boolean {
  return (
    f.status === 0 &&
    f.tagNums === undefined &&
    f.linkMask === 0 &&
    f.source === undefined &&
    f.updatedAfter === undefined
  );
}

/**
 * The documents passing every filter, as a bitmap: `within` (a search's matches) or every
 * document, AND the status's bitmap, AND each link type's, AND each tag's posting list (`all`)
 * or their union (`any`), a machine word at a time; source and updatedAfter, which have no
 * bitmap, are tested on the documents left. `ignore`: a facet counting past its own filter.
 */
export function filterSet(cx: SearchContext, f: CompiledFilters, within?: Bits): Bits {
  const { ix, bits } = cx;
  const out = bits.take();
  if (f.tagsImpossible) return out;
  if (within) out.or(within);
  else {
    out.orWords(ix.statusBits[1]!);
    out.orWords(ix.statusBits[2]!);
  }
  if (f.status !== 0) out.andWords(ix.statusBits[f.status]!);
  for (let i = 0; i < LINK_TYPES.length; i++) if (f.linkMask & (1 << i)) out.andWords(ix.linkBits[i]!);
  if (f.tagNums) {
    const tags = bits.take();
    if (f.tagMode === 'any') {
      for (const t of f.tagNums) ix.tagDocs.orInto(t, tags);
      out.and(tags);
    } else
      for (const t of f.tagNums) {
        if (out.empty) break;
        tags.clear();
        ix.tagDocs.orInto(t, tags);
        out.and(tags);
      }
  }
  if ((f.source !== undefined || f.updatedAfter !== undefined) && !out.empty) {
    const list = cx.docList(out.count());
    const n = out.toList(list);
    for (let i = 0; i < n; i++) if (!othersOk(ix, f, list[i]!)) out.remove(list[i]!);
  }
  return out;
}
