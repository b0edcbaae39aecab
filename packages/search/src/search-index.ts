import { facetPass, maintainedFacets } from './facets.ts';
import { allOk, type CompiledFilters, compileFilters, noFilters, universe } from './filters.ts';
import { MAX_QUERY_TERMS } from './limits.ts';
import { type Matched, match } from './matching.ts';
import { Buckets, fieldOf, keyOf, keyTiers, relevancePage, SCORES, sortedPage, walkOrder } from './pages.ts';
import { codeTypos, KEY_NONE } from './ranking.ts';
import { select } from './select.ts';
import { Store } from './store.ts';
import { compareCodePoints, isCjkToken, tokens } from './text.ts';
import type {
  FacetName,
  ProjectFacets,
  ProjectHit,
  ProjectHits,
  ProjectQuery,
  TagHit,
  TagQuery,
} from './types.ts';

/*
 * The engine's queries: a search (match, filter, count, facets, a page) and a list (a walk of
 * a pre-sorted order). The state and the writes are in store.ts; how a query matches in
 * matching.ts, the rank tiers and pages in pages.ts (scores: ranking.ts), filters in
 * filters.ts, facets in facets.ts.
 */
export class SearchIndex extends Store {
  findProjects(query: ProjectQuery): ProjectHits {
    this.prepare();
    const f = compileFilters(this, query);
    const facetNames = [...new Set(query.facets)];
    if (query.q !== undefined) {
      this.bits.begin(this.idNum.length);
      try {
        const m = match(this, query.q, query.typos !== false);
        if (!m) {
          const empty: ProjectFacets = {};
          for (const name of facetNames) empty[name] = [];
          return { hits: [], total: 0, ...(facetNames.length > 0 && { facets: empty }) };
        }
        return this.searchPage(query, f, m, facetNames);
      } finally {
        this.bits.end();
      }
    }
    return this.listPage(query, f, facetNames);
  }

  /** With q: the matches are known; facets, filters, the key tiers, the total, and the page from the buckets. */
  private searchPage(
    query: ProjectQuery,
    f: CompiledFilters,
    m: Matched,
    facetNames: FacetName[],
  ): ProjectHits {
    const matched = m.set;
    const all = matched.union;
    // facets count the matches before the filters (each facet ignores its own)
    let facets: ProjectFacets | undefined;
    if (facetNames.length > 0) {
      // the list only when the facets are counted a document at a time
      const n = all.count();
      let list: Uint32Array | undefined;
      const listed = () => {
        if (!list) {
          list = this.docList(n);
          all.toList(list);
        }
        return list;
      };
      facets = facetPass(this, f, facetNames, {
        n,
        get list() {
          return listed();
        },
        has: (d) => all.has(d),
        bits: all,
      });
    }
    if (!noFilters(this, f)) {
      const list = this.docList(all.count());
      const n = all.toList(list);
      for (let i = 0; i < n; i++) if (!allOk(this, f, list[i]!)) matched.remove(list[i]!);
    }
    const total = matched.union.count();
    const buckets = new Buckets(this, matched, keyTiers(this, m, matched));
    const page =
      query.sort === 'relevance'
        ? relevancePage(this, query, buckets)
        : sortedPage(this, query, matched.union, total);
    const hits: ProjectHit[] = page.map((d) => {
      const code = matched.codeOf(d);
      const tier = codeTypos(code) === 0 ? buckets.tierOf(d) : KEY_NONE;
      const s = SCORES[(code << 3) | tier]!;
      return {
        id: this.ids[d]!,
        key: query.sort === 'relevance' ? s : keyOf(this, query.sort, d),
        match: { field: fieldOf(this, d, code, m, tier), score: s, typos: codeTypos(code) },
      };
    });
    return { hits, total, ...(facets && { facets }) };
  }

  /** Without q: a walk of the pre-sorted order, an exact total, and the facets. */
  private listPage(query: ProjectQuery, f: CompiledFilters, facetNames: FacetName[]): ProjectHits {
    if (query.sort === 'relevance') throw new Error('SearchIndex: relevance needs q');
    const none = noFilters(this, f);
    const asOf = query.asOf;
    const page = walkOrder(
      this,
      query,
      (d) => (asOf === undefined || this.updated[d]! <= asOf) && (none || allOk(this, f, d)),
    );
    let total: number;
    if (none) total = this.live;
    else if (
      f.tagNums === undefined &&
      f.linkMask === 0 &&
      f.source === undefined &&
      f.updatedAfter === undefined
    )
      total = this.statusCount[f.status]!;
    else {
      total = 0;
      universe(this, f, (d) => {
        if (allOk(this, f, d)) total++;
      });
    }
    let facets: ProjectFacets | undefined;
    if (facetNames.length > 0) {
      if (none) facets = maintainedFacets(this, facetNames);
      else {
        facets = facetPass(this, f, facetNames, undefined);
      }
    }
    return {
      hits: page.map((d) => ({ id: this.ids[d]!, key: keyOf(this, query.sort, d) })),
      total,
      ...(facets && { facets }),
    };
  }

  // ————————————————————————————————————————— tags list

  findTags(query: TagQuery): { hits: TagHit[]; total: number } {
    const terms = query.q === undefined ? undefined : [...new Set(tokens(query.q))].slice(0, MAX_QUERY_TERMS);
    if (terms && terms.length === 0) return { hits: [], total: 0 };
    const patterns = terms?.map((t) => (!isCjkToken(t) && t.length <= 2 ? ` ${t}` : t));
    const found: number[] = [];
    for (let t = 0; t < this.tags.length; t++) {
      if (!this.tags[t]) continue;
      if (patterns && !patterns.every((p) => this.tagSearch[t]!.includes(p))) continue;
      found.push(t);
    }
    const byCount = query.sort === 'count';
    const cmp = (a: number, b: number) =>
      byCount
        ? this.tagCount[b]! - this.tagCount[a]! || compareCodePoints(this.tags[a]!.id, this.tags[b]!.id)
        : compareCodePoints(this.tagNameKey[a]!, this.tagNameKey[b]!) ||
          compareCodePoints(this.tags[a]!.id, this.tags[b]!.id);
    const after = query.after;
    const afterCursor = (t: number) => {
      if (!after) return true;
      const id = this.tags[t]!.id;
      if (byCount) {
        const k = Number(after.key);
        const c = this.tagCount[t]!;
        return c < k || (c === k && compareCodePoints(id, after.id) > 0);
      }
      const c = compareCodePoints(this.tagNameKey[t]!, String(after.key));
      return c > 0 || (c === 0 && compareCodePoints(id, after.id) > 0);
    };
    const page = select(found, found.length, query.limit + 1, afterCursor, cmp);
    return {
      hits: page.map((t) => ({
        id: this.tags[t]!.id,
        key: byCount ? this.tagCount[t]! : this.tagNameKey[t]!,
        projectCount: this.tagCount[t]!,
      })),
      total: found.length,
    };
  }
}
