import type { SearchContext } from './context.ts';
import { allOk, type CompiledFilters } from './filters.ts';
import type { Matched } from './matching.ts';
import { fieldOf } from './pages.ts';
import { codeTypos, KEY_NONE, MAX_SCORE } from './ranking.ts';
import { tokens } from './text.ts';
import type { ProjectHit, ProjectHits, ProjectQuery } from './types.ts';

/*
 * Curated results (docs/search.md#curated-results-pins): for a query, the projects shown first,
 * in their order, and those never shown. Applied to a relevance search whose normalised text is a
 * pin's query: the `first` projects that exist and pass the filters come first (whether or not
 * they match the words), then the relevance page without them and without the `hide` ones.
 *
 * Pages stay consistent: a pinned hit's cursor key is PIN_KEY minus its place among the pinned
 * hits shown, above every relevance key, so that a cursor after one resumes with the next pinned
 * hit, and a cursor after a relevance hit resumes the relevance page, which never holds a pinned
 * one. `total` counts what is shown: the matches without the hidden and pinned ones, plus the
 * pinned ones.
 */

export interface Pin {
  /** The query as search normalises it (pinQuery). */
  query: string;
  first: readonly string[];
  hide: readonly string[];
}

/** The normalised form of a query a pin is looked up by: its tokens, joined by a space. */
export const pinQuery = (q: string): string => tokens(q).join(' ');

/** Above every relevance cursor key (a bucket score × 2^24 plus its rank, ranking.ts). */
const PIN_KEY = 2 ** 40;
/** A cursor key above this is a pinned hit's. */
const PIN_FLOOR = 2 ** 39;

/** A pinned hit's match.score: above every score a match can have. */
export const PIN_SCORE = MAX_SCORE + 1;

/** The pins by normalised query. */
export class PinTable {
  #byQuery = new Map<string, Pin>();

  set(pins: readonly Pin[]): void {
    this.#byQuery = new Map(pins.map((p) => [pinQuery(p.query), p]));
  }

  /** The pin of a query, when it has one (none when there are no pins: no tokenising). */
  of(q: string): Pin | undefined {
    return this.#byQuery.size === 0 ? undefined : this.#byQuery.get(pinQuery(q));
  }
}

/**
 * A relevance page under a pin. `m`: the query's matches (undefined: none); `search`: the
 * engine's search page for a query and matches (search-index.ts searchPage), which restricts the
 * matches to the filters.
 */
export function pinnedPage(
  cx: SearchContext,
  query: ProjectQuery,
  f: CompiledFilters,
  m: Matched | undefined,
  pin: Pin,
  search: (q: ProjectQuery, m: Matched) => ProjectHits,
): ProjectHits {
  const ix = cx.ix;
  const docOf = (slug: string) => {
    const d = ix.bySlug.get(slug);
    return d !== undefined && ix.isLive(d) ? d : undefined;
  };
  const hidden = new Set(pin.hide.flatMap((slug) => docOf(slug) ?? []));
  const pinned: number[] = [];
  for (const slug of pin.first) {
    const d = docOf(slug);
    if (d !== undefined && !hidden.has(d) && !pinned.includes(d) && allOk(ix, f, d)) pinned.push(d);
  }
  if (m && hidden.size > 0) {
    const keep = cx.bits.take();
    keep.or(m.set.union);
    for (const d of hidden) keep.remove(d);
    m.set.restrict(keep);
  }
  // where the page starts: among the pinned hits, or in the relevance page after them
  const after = query.after;
  const inPins = !after || Number(after.key) > PIN_FLOOR;
  const from = !after ? 0 : inPins ? PIN_KEY - Number(after.key) + 1 : pinned.length;
  const shown = inPins ? pinned.slice(from, from + query.limit + 1) : [];
  // the relevance page: from its start after the pinned hits, with room for the pinned ones it drops
  const rest = Math.max(0, query.limit - shown.length);
  const inner = m
    ? search({ ...query, limit: rest + pinned.length, ...(inPins ? { after: undefined } : {}) }, m)
    : undefined;
  const isPinned = new Set(pinned);
  const matches = m?.set.union;
  const hits: ProjectHit[] = shown.map((d, i) => {
    const code = matches?.has(d) ? m!.set.codeOf(d) : 0;
    return {
      id: ix.ids[d]!,
      key: PIN_KEY - (from + i),
      match: {
        field: code === 0 ? 'name' : fieldOf(ix, d, code, m!, KEY_NONE),
        score: PIN_SCORE,
        typos: code === 0 ? 0 : codeTypos(code),
      },
    };
  });
  if (hits.length <= query.limit && inner)
    for (const hit of inner.hits) {
      if (hits.length > query.limit) break;
      const d = ix.docOf.get(hit.id);
      if (d === undefined || !isPinned.has(d)) hits.push(hit);
    }
  let pinnedMatches = 0;
  if (matches) for (const d of pinned) if (matches.has(d)) pinnedMatches++;
  const total = (inner?.total ?? 0) - pinnedMatches + pinned.length;
  const facets = inner?.facets ?? emptyFacets(query);
  return {
    hits,
    total,
    ...(facets && { facets }),
    ...(m?.dropped && { dropped: m.dropped }),
  };
}

function emptyFacets(query: ProjectQuery): ProjectHits['facets'] {
  if (query.facets.length === 0) return undefined;
  const empty: NonNullable<ProjectHits['facets']> = {};
  for (const name of new Set(query.facets)) empty[name] = [];
  return empty;
}
