import { BitPool } from './bitmap.ts';
import { CACHE_ENTRIES, RELATED_LIMITS } from './limits.ts';

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
  /** A related-projects query's scores (related.ts). */
  readonly related = new RelatedScratch();
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

/**
 * The scores of a related-projects query (related.ts), per document: each back to zero when
 * it ends; `stamp` tells whether a feature already counted a document (no reset needed).
 */
export class RelatedScratch {
  score = new Int32Array(1024);
  stamp = new Uint32Array(1024);
  private serial = 0;
  /** The documents scored (at most RELATED_LIMITS.visits). */
  readonly touched = new Uint32Array(RELATED_LIMITS.visits);

  /** Grown to `end` documents. */
  fit(end: number): void {
    if (this.score.length >= end) return;
    let n = this.score.length;
    while (n < end) n *= 2;
    this.score = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.serial = 0;
  }

  /** A stamp no document has yet. */
  nextStamp(): number {
    if (this.serial >= 0xfffffff0) {
      this.stamp.fill(0);
      this.serial = 0;
    }
    return ++this.serial;
  }
}
