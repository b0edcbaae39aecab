import { BitPool } from './bitmap.ts';
import { CACHE_ENTRIES } from './limits.ts';

/*
 * What outlives a query, in one place: the scratch a query borrows and gives back (bitmaps, a
 * list of documents, tag counters: allocated once, grown to the directory), and what a query
 * may reuse from the ones before it while the tags do not change (the tags a word matches, the
 * tags' slug order). Each is bounded: the scratch by the directory's size, the tag matches by
 * CACHE_ENTRIES (least recently used out). The vocabulary keeps its own expansions, bounded the
 * same way (vocabulary.ts), because every new token updates them. A query only reads the index
 * (store.ts); its own state is its SearchContext (context.ts).
 */

export interface TagMatch {
  tags: number[];
  typos: number[];
}

export class QueryCaches {
  /** The bitmaps of a query, given back when it ends. */
  readonly bits = new BitPool();
  private list = new Uint32Array(1024);
  private counts = new Int32Array(64);
  private readonly tagMatchMap = new Map<string, TagMatch>();
  private tagMatchVersion = -1;
  private slugRanks: Int32Array = new Int32Array(0);
  private slugRankVersion = -1;

  /** A list for at least n documents (one use at a time). */
  docList(n: number): Uint32Array {
    if (this.list.length < n) this.list = new Uint32Array(Math.max(n, this.list.length * 2));
    return this.list;
  }

  /** Counters for n tags, all zero; the caller zeroes those it touched before it returns. */
  tagCounts(n: number): Int32Array {
    if (this.counts.length < n) this.counts = new Int32Array(n * 2);
    return this.counts;
  }

  /** The tags a term matches at a tags version: kept, or computed now and kept. */
  tagMatches(version: number, key: string, compute: () => TagMatch): TagMatch {
    if (this.tagMatchVersion !== version) {
      this.tagMatchMap.clear();
      this.tagMatchVersion = version;
    }
    const hit = this.tagMatchMap.get(key);
    if (hit) {
      // most recently used last
      this.tagMatchMap.delete(key);
      this.tagMatchMap.set(key, hit);
      return hit;
    }
    const m = compute();
    if (this.tagMatchMap.size >= CACHE_ENTRIES)
      this.tagMatchMap.delete(this.tagMatchMap.keys().next().value!);
    this.tagMatchMap.set(key, m);
    return m;
  }

  /** Tag matches kept (the test of the bound). */
  get tagMatchesKept(): number {
    return this.tagMatchMap.size;
  }

  /** Each tag's rank in slug order at a version of the tags: kept, or computed now. */
  slugRank(version: number, compute: () => Int32Array): Int32Array {
    if (this.slugRankVersion !== version) {
      this.slugRanks = compute();
      this.slugRankVersion = version;
    }
    return this.slugRanks;
  }
}
