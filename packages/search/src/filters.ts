import { SLOT_SEEN } from './doc-set.ts';
import { LINK_TYPES, type Store, UNKNOWN_SOURCE } from './store.ts';
import type { ProjectQuery } from './types.ts';

/* The filters of a query (status, tags all/any, link types, source, updatedAfter), compiled once and tested per document. */

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

export function noFilters(_ix: Store, f: CompiledFilters): boolean {
  return (
    f.status === 0 &&
    f.tagNums === undefined &&
    f.linkMask === 0 &&
    f.source === undefined &&
    f.updatedAfter === undefined
  );
}

/** Visits every document that may pass the filters: a tag's postings when tags are required, else all. */
export function universe(ix: Store, f: CompiledFilters, visit: (d: number) => void) {
  if (f.tagsImpossible) return;
  if (f.tagNums && f.tagMode === 'all') {
    let rarest = f.tagNums[0]!;
    for (const t of f.tagNums) if (ix.tagDocs.size(t) < ix.tagDocs.size(rarest)) rarest = t;
    ix.tagDocs.forEach(rarest, visit);
    return;
  }
  if (f.tagNums && f.tagMode === 'any') {
    const seen = ix.scratch.acquire(SLOT_SEEN, ix.idNum.length);
    for (const t of f.tagNums)
      ix.tagDocs.forEach(t, (d) => {
        if (!seen.has(d)) {
          seen.best(d, 1);
          visit(d);
        }
      });
    return;
  }
  for (let d = 0; d < ix.end; d++) if (ix.projects[d]) visit(d);
}
