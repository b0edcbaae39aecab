import { relevancePage } from './bucket-sort.ts';
import { QueryCaches } from './caches.ts';
import { SearchContext } from './context.ts';
import { explainHit } from './explain.ts';
import { countFacets } from './facets.ts';
import { type CompiledFilters, compileFilters, filterSet, noFilters } from './filters.ts';
import { MAX_QUERY_TERMS } from './limits.ts';
import { type Matched, match } from './matching.ts';
import { fieldOf, keyOf, sortedPage, walkOrder } from './pages.ts';
import { type Pin, PinTable, pinnedPage } from './pins.ts';
import { codeTypos, fullScore, KEY_NONE, SCORES } from './ranking.ts';
import { findRelated } from './related.ts';
import type { RelatedHit } from './related-features.ts';
import { keyTiers, tierOf } from './rules/exactness.ts';
import { rankScore } from './rules/rank-order.ts';
import { select } from './select.ts';
import { Store } from './store.ts';
import { compareCodePoints, isCjkToken, tokens } from './text.ts';
import type {
  FacetName,
  IndexedProject,
  IndexedTag,
  ProjectFacets,
  ProjectHit,
  ProjectHits,
  ProjectQuery,
  TagHit,
  TagQuery,
} from './types.ts';

/*
 * The engine: the index (store.ts: its state, and the only writer of it) and its queries. A
 * query reads the index and keeps what it computes in its own context (context.ts), with the
 * scratch that outlives it in one place (caches.ts). A search (match, filter, count, facets, a
 * page) and a list (a walk of a pre-sorted order). A search passes, in order: matching.ts (the
 * words' documents by match code), filters.ts (a bitmap), facets.ts, rules/exactness.ts (the key
 * tiers), bucket-sort.ts with the ranking rules of rules/ (a relevance page) or pages.ts (a
 * page in a sort's order; match.field), ranking.ts (the scores).
 */
export class SearchIndex {
  /** The index's state, for reads (related projects read its postings and bitmaps). */
  readonly store = new Store();
  private readonly caches = new QueryCaches();
  /** Curated results (pins.ts); not in the snapshot: the read model sets them after a load. */
  readonly #pins = new PinTable();

  // ————————————————————————————————————————— writes (store.ts)

  putTags(tags: IndexedTag[]): void {
    this.store.putTags(tags);
  }

  removeTags(tagIds: string[]): void {
    this.store.removeTags(tagIds);
  }

  setSynonyms(sets: string[][]): void {
    this.store.setSynonyms(sets);
  }

  /** Replaces the curated results (docs/search.md#curated-results-pins). */
  setPins(pins: readonly Pin[]): void {
    this.#pins.set(pins);
  }

  /**
   * Puts projects (new or replacing). `more`: more batches of a build follow, and the index is
   * not queried until prepare() has sorted their orders once (else each batch sorts them).
   */
  put(projects: IndexedProject[], more = false): void {
    this.store.put(projects, more);
  }

  remove(projectIds: string[]): void {
    this.store.remove(projectIds);
  }

  /** Sorts the orders of the batches put with `more` (a build ends with it). */
  prepare(): void {
    this.store.prepare();
  }

  // ————————————————————————————————————————— reads

  project(id: string): IndexedProject | undefined {
    return this.store.project(id);
  }

  tag(id: string): IndexedTag | undefined {
    return this.store.tag(id);
  }

  /** The id of the project with this slug (of two, the one put last), or undefined. */
  idOfSlug(slug: string): string | undefined {
    return this.store.idOfSlug(slug);
  }

  stats(): { projects: number; tags: number; bytes: number } {
    return this.store.stats();
  }

  /** The `limit` projects most like project `id`, each with why (related.ts); undefined: no such project. */
  findRelated(id: string, limit: number): RelatedHit[] | undefined {
    return findRelated(this.store, this.caches.related, id, limit);
  }

  findProjects(query: ProjectQuery): ProjectHits {
    const cx = new SearchContext(this.store, this.caches);
    return cx.run(() => {
      const f = compileFilters(this.store, query);
      const facetNames = [...new Set(query.facets)];
      if (query.q === undefined) return listPage(cx, query, f, facetNames);
      const m = match(cx, query.q, query.typos !== false, query.matchingStrategy);
      const pin = query.sort === 'relevance' ? this.#pins.of(query.q) : undefined;
      if (pin)
        return pinnedPage(cx, query, f, m ?? undefined, pin, (q, mm) => searchPage(cx, q, f, mm, facetNames));
      if (!m) {
        const empty: ProjectFacets = {};
        for (const name of facetNames) empty[name] = [];
        return { hits: [], total: 0, ...(facetNames.length > 0 && { facets: empty }) };
      }
      return searchPage(cx, query, f, m, facetNames);
    });
  }

  // ————————————————————————————————————————— tags list

  findTags(query: TagQuery): { hits: TagHit[]; total: number } {
    const ix = this.store;
    const terms = query.q === undefined ? undefined : [...new Set(tokens(query.q))].slice(0, MAX_QUERY_TERMS);
    if (terms && terms.length === 0) return { hits: [], total: 0 };
    const patterns = terms?.map((t) => (!isCjkToken(t) && t.length <= 2 ? ` ${t}` : t));
    const found: number[] = [];
    for (let t = 0; t < ix.tags.length; t++) {
      if (!ix.tags[t]) continue;
      if (patterns && !patterns.every((p) => ix.tagSearch[t]!.includes(p))) continue;
      found.push(t);
    }
    const byCount = query.sort === 'count';
    const cmp = (a: number, b: number) =>
      byCount
        ? ix.tagCount[b]! - ix.tagCount[a]! || compareCodePoints(ix.tags[a]!.id, ix.tags[b]!.id)
        : compareCodePoints(ix.tagNameKey[a]!, ix.tagNameKey[b]!) ||
          compareCodePoints(ix.tags[a]!.id, ix.tags[b]!.id);
    const after = query.after;
    const afterCursor = (t: number) => {
      if (!after) return true;
      const id = ix.tags[t]!.id;
      if (byCount) {
        const k = Number(after.key);
        const c = ix.tagCount[t]!;
        return c < k || (c === k && compareCodePoints(id, after.id) > 0);
      }
      const c = compareCodePoints(ix.tagNameKey[t]!, String(after.key));
      return c > 0 || (c === 0 && compareCodePoints(id, after.id) > 0);
    };
    const page = select(found, found.length, query.limit + 1, afterCursor, cmp);
    return {
      hits: page.map((t) => ({
        id: ix.tags[t]!.id,
        key: byCount ? ix.tagCount[t]! : ix.tagNameKey[t]!,
        projectCount: ix.tagCount[t]!,
      })),
      total: found.length,
    };
  }
}

/** With q: the matches are known; facets, filters, the key tiers, the total, and the page from the buckets. */
function searchPage(
  cx: SearchContext,
  query: ProjectQuery,
  f: CompiledFilters,
  m: Matched,
  facetNames: FacetName[],
): ProjectHits {
  const ix = cx.ix;
  const matched = m.set;
  const all = matched.union;
  // facets count the matches before the filters (each facet ignores its own)
  let facets: ProjectFacets | undefined;
  if (facetNames.length > 0) facets = countFacets(cx, f, facetNames, all);
  if (!noFilters(f)) matched.restrict(filterSet(cx, f, all));
  const total = matched.union.count();
  const tiers = keyTiers(cx, m, matched);
  const page =
    query.sort === 'relevance'
      ? relevancePage(cx, query, matched, tiers)
      : sortedPage(cx, query, matched.union, total);
  const hits: ProjectHit[] = page.map((d) => {
    const code = matched.codeOf(d);
    const tier = codeTypos(code) === 0 ? tierOf(tiers, d) : KEY_NONE;
    const s = SCORES[(code << 3) | tier]!;
    const match: NonNullable<ProjectHit['match']> = {
      field: fieldOf(ix, d, code, m, tier),
      score: s,
      typos: codeTypos(code),
    };
    if (query.explain) match.rules = explainHit(ix, m, d, code, tier);
    // a relevance cursor resumes from the full score: the bucket's, then coverage and standing (ranking.ts)
    const key = query.sort === 'relevance' ? fullScore(s, rankScore(ix, d)) : keyOf(ix, query.sort, d);
    return { id: ix.ids[d]!, key, match };
  });
  return { hits, total, ...(facets && { facets }), ...(m.dropped && { dropped: m.dropped }) };
}

/** Without q: a walk of the pre-sorted order (through the filters' bitmap), an exact total, and the facets. */
function listPage(
  cx: SearchContext,
  query: ProjectQuery,
  f: CompiledFilters,
  facetNames: FacetName[],
): ProjectHits {
  const ix = cx.ix;
  if (query.sort === 'relevance') throw new Error('SearchIndex: relevance needs q');
  const passing = noFilters(f) ? undefined : filterSet(cx, f);
  const asOf = query.asOf;
  const page = walkOrder(
    ix,
    query,
    (d) => (asOf === undefined || ix.updated[d]! <= asOf) && (!passing || passing.has(d)),
  );
  const total = passing ? passing.count() : ix.live;
  let facets: ProjectFacets | undefined;
  if (facetNames.length > 0) facets = countFacets(cx, f, facetNames, undefined);
  return {
    hits: page.map((d) => ({ id: ix.ids[d]!, key: keyOf(ix, query.sort, d) })),
    total,
    ...(facets && { facets }),
  };
}
