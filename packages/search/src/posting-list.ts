import { shrunk } from './shrunk.ts';

/*
 * Where posting lists live (postings.ts reads them; postings-batch.ts appends a batch): per
 * term a length, and one document inline (`at`), or up to SMALL documents in a run of slots
 * of one shared array (`slab`, capacity a power of two, moved to a larger run when full), or
 * more in an array of its own (`big`, grown by doubling). So a million small lists are three
 * typed arrays, not a million JS arrays, and a snapshot writes and reads them as bytes. The
 * slab's runs left behind are reclaimed when they are half of it.
 */

/** Lists up to this many documents share the slab. */
export const SMALL = 32;

export function lowerBound(l: ArrayLike<number>, from: number, n: number, x: number): number {
  let lo = from;
  let hi = from + n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo - from;
}

export class PostingLists {
  /** Per term: how many documents its list holds. */
  lens = new Uint32Array(1024);
  /** Per term: its one document, or where its run starts in the slab. */
  at = new Uint32Array(1024);
  /** Per term in the slab: the slots of its run (0: none). */
  cap = new Uint8Array(1024);
  slab = new Uint32Array(4096);
  used = 0;
  garbage = 0;
  /** The lists of more than SMALL documents (capacity larger than their length). */
  big = new Map<number, Uint32Array>();

  /** Makes the per-term arrays hold `term` (a batch append makes them hold its last at once). */
  fit(term: number): void {
    if (term < this.lens.length) return;
    const n = Math.max(term + 1, this.lens.length * 2);
    const lens = new Uint32Array(n);
    lens.set(this.lens);
    this.lens = lens;
    const at = new Uint32Array(n);
    at.set(this.at);
    this.at = at;
    const cap = new Uint8Array(n);
    cap.set(this.cap);
    this.cap = cap;
  }

  /** A run of k slots in the slab (the slab compacted or grown first when full). */
  protected alloc(k: number): number {
    if (this.used + k > this.slab.length) {
      const compact = this.garbage > this.used / 2;
      const live = this.used - this.garbage;
      const slab = new Uint32Array(
        Math.max(compact ? this.slab.length : this.slab.length * 2, (live + k) * 2),
      );
      if (compact) {
        let used = 0;
        for (let t = 0; t < this.cap.length; t++) {
          const c = this.cap[t]!;
          if (c === 0) continue;
          slab.set(this.slab.subarray(this.at[t]!, this.at[t]! + c), used);
          this.at[t] = used;
          used += c;
        }
        this.used = used;
        this.garbage = 0;
      } else slab.set(this.slab.subarray(0, this.used));
      this.slab = slab;
    }
    const at = this.used;
    this.used += k;
    return at;
  }

  /**
   * Gives back the room of the slab and the big lists beyond a 32nd more than they hold (a
   * build ends with it; a later trim copies only what has twice that room).
   */
  trim(): void {
    const room = (n: number) => Math.max(16, n + (n >> 5));
    if (this.slab.length > room(this.used) * 1.03) this.slab = shrunk(this.slab, room(this.used));
    for (const [term, l] of this.big) {
      const n = this.lens[term]!;
      if (l.length > room(room(n))) this.big.set(term, l.slice(0, room(n)));
    }
  }

  /** Puts a term's documents (sorted, unique, 2..SMALL of them) into a run of their own. */
  place(term: number, docs: ArrayLike<number>, from: number, n: number): void {
    let c = 2;
    while (c < n) c *= 2;
    const at = this.alloc(c);
    for (let i = 0; i < n; i++) this.slab[at + i] = docs[from + i]!;
    this.at[term] = at;
    this.cap[term] = c;
    this.lens[term] = n;
  }

  add(term: number, doc: number): void {
    this.fit(term);
    const n = this.lens[term]!;
    const big = this.big.get(term);
    if (big) {
      if (n > 0 && big[n - 1] === doc) return;
      const at = n > 0 && big[n - 1]! < doc ? n : lowerBound(big, 0, n, doc);
      if (at < n && big[at] === doc) return;
      let t = big;
      if (n === big.length) {
        t = new Uint32Array(big.length * 2);
        t.set(big);
        this.big.set(term, t);
      }
      if (at < n) t.copyWithin(at + 1, at, n);
      t[at] = doc;
      this.lens[term] = n + 1;
    } else if (n === 0) {
      this.at[term] = doc;
      this.lens[term] = 1;
    } else if (n === 1) {
      const x = this.at[term]!;
      if (x === doc) return;
      this.place(term, x < doc ? [x, doc] : [doc, x], 0, 2);
    } else {
      const from = this.at[term]!;
      const at = lowerBound(this.slab, from, n, doc);
      if (at < n && this.slab[from + at] === doc) return;
      if (n < this.cap[term]!) {
        this.slab.copyWithin(from + at + 1, from + at, from + n);
        this.slab[from + at] = doc;
        this.lens[term] = n + 1;
        return;
      }
      // full: the documents with the new one, into a larger run (or an array of its own)
      const docs = new Uint32Array(n + 1);
      docs.set(this.slab.subarray(from, from + at));
      docs[at] = doc;
      docs.set(this.slab.subarray(from + at, from + n), at + 1);
      this.garbage += this.cap[term]!;
      this.cap[term] = 0;
      if (n + 1 <= SMALL) this.place(term, docs, 0, n + 1);
      else {
        const t = new Uint32Array(SMALL * 4);
        t.set(docs);
        this.big.set(term, t);
        this.lens[term] = n + 1;
      }
    }
  }

  delete(term: number, doc: number): void {
    if (term >= this.lens.length) return;
    const n = this.lens[term]!;
    if (n === 0) return;
    const big = this.big.get(term);
    if (big) {
      const at = lowerBound(big, 0, n, doc);
      if (at >= n || big[at] !== doc) return;
      big.copyWithin(at, at + 1, n);
      this.lens[term] = n - 1;
    } else if (n === 1) {
      if (this.at[term] === doc) this.lens[term] = 0;
    } else {
      const from = this.at[term]!;
      const at = lowerBound(this.slab, from, n, doc);
      if (at >= n || this.slab[from + at] !== doc) return;
      this.slab.copyWithin(from + at, from + at + 1, from + n);
      this.lens[term] = n - 1;
      if (n - 1 === 1) {
        // one document left: inline again
        this.at[term] = this.slab[from]!;
        this.garbage += this.cap[term]!;
        this.cap[term] = 0;
      }
    }
  }
}
