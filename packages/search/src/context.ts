import type { BitPool } from './bitmap.ts';
import type { QueryCaches } from './caches.ts';
import type { Store } from './store.ts';

/*
 * A query's own state: the index it reads (store.ts, never written while answering) and the
 * scratch it borrows (caches.ts). What the query computes (its words, matches, filters, rank
 * tiers, buckets) is made by the steps of search-index.ts and handed from one to the next as
 * values; nothing of it is left on the index.
 */
export class SearchContext {
  constructor(
    readonly ix: Store,
    readonly caches: QueryCaches,
  ) {}

  get bits(): BitPool {
    return this.caches.bits;
  }

  /** A scratch list for at least n documents (one use at a time). */
  docList(n: number): Uint32Array {
    return this.caches.docList(n);
  }

  /** Runs a query's steps with bitmaps for the whole directory, given back at the end. */
  run<T>(steps: () => T): T {
    this.bits.begin(this.ix.idNum.length);
    try {
      return steps();
    } finally {
      this.bits.end();
    }
  }
}
