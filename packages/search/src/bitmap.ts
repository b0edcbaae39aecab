/*
 * Sets of documents as bitmaps: a Uint32Array word per 32 document numbers, with the range of
 * words that may be non-zero, so that a set clustered in part of the directory costs its
 * range. A query's sets (each word's matches by match code, the rank tiers, the buckets of
 * a page) are made and combined a word (32 documents) at a time: OR, AND, AND NOT, and a
 * population count for a cardinality. They come from a pool and go back to it after the
 * query, zeroed over their range, so that a query allocates nothing per document.
 *
 * Why not an npm bitmap library: the engine needs fused word loops over several sets at once
 * (the combination of two words' match codes, a bucket from a code and the tiers) on sets of
 * the pool, with the non-zero range kept; the bitset packages offer one operation per call on
 * sets they allocate, and `roaring` is a native addon that needs a build or a download.
 */

export class Bits {
  words: Uint32Array;
  /** Words outside [lo, hi) are zero. */
  lo: number;
  hi: number;

  constructor(words: number) {
    this.words = new Uint32Array(words);
    this.lo = words;
    this.hi = 0;
  }

  get empty(): boolean {
    return this.lo >= this.hi;
  }

  has(d: number): boolean {
    return ((this.words[d >>> 5]! >>> (d & 31)) & 1) === 1;
  }

  add(d: number): void {
    const w = d >>> 5;
    this.words[w]! |= 1 << (d & 31);
    if (w < this.lo) this.lo = w;
    if (w >= this.hi) this.hi = w + 1;
  }

  remove(d: number): void {
    this.words[d >>> 5]! &= ~(1 << (d & 31));
  }

  /** Adds a sorted or unsorted list of documents. */
  addList(docs: ArrayLike<number>, n: number): void {
    if (n === 0) return;
    const words = this.words;
    let lo = this.lo;
    let hi = this.hi;
    for (let i = 0; i < n; i++) {
      const d = docs[i]!;
      const w = d >>> 5;
      words[w]! |= 1 << (d & 31);
      if (w < lo) lo = w;
      if (w >= hi) hi = w + 1;
    }
    this.lo = lo;
    this.hi = hi;
  }

  /** this |= other (other's words beyond this one's length are zero by construction). */
  or(other: Bits): void {
    if (other.empty) return;
    const a = this.words;
    const b = other.words;
    const hi = Math.min(other.hi, a.length);
    for (let i = other.lo; i < hi; i++) a[i]! |= b[i]!;
    if (other.lo < this.lo) this.lo = other.lo;
    if (hi > this.hi) this.hi = hi;
  }

  /** this |= raw words (a dense posting list's bitmap). */
  orWords(b: Uint32Array): void {
    const a = this.words;
    const n = Math.min(a.length, b.length);
    let lo = -1;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const w = b[i]!;
      if (w !== 0) {
        a[i]! |= w;
        if (lo < 0) lo = i;
        hi = i + 1;
      }
    }
    if (lo >= 0) {
      if (lo < this.lo) this.lo = lo;
      if (hi > this.hi) this.hi = hi;
    }
  }

  /** this &= ~other. */
  andNot(other: Bits): void {
    const a = this.words;
    const b = other.words;
    const lo = Math.max(this.lo, other.lo);
    const hi = Math.min(this.hi, other.hi);
    for (let i = lo; i < hi; i++) a[i]! &= ~b[i]!;
  }

  /** this &= other. */
  and(other: Bits): void {
    const a = this.words;
    const b = other.words;
    const lo = Math.max(this.lo, other.lo);
    const hi = Math.min(this.hi, other.hi);
    if (lo >= hi) {
      this.clear();
      return;
    }
    a.fill(0, this.lo, lo);
    for (let i = lo; i < hi; i++) a[i]! &= b[i]!;
    a.fill(0, hi, this.hi);
    this.lo = lo;
    this.hi = hi;
  }

  /** this &= raw words (a status's, a link type's or a dense posting list's bitmap). */
  andWords(b: Uint32Array): void {
    const a = this.words;
    const hi = Math.min(this.hi, b.length);
    for (let i = this.lo; i < hi; i++) a[i]! &= b[i]!;
    if (hi < this.hi) a.fill(0, hi, this.hi);
    this.hi = Math.max(this.lo, hi);
  }

  /** out |= this & other; whether anything was added. */
  andInto(other: Bits, out: Bits): boolean {
    const a = this.words;
    const b = other.words;
    const o = out.words;
    const lo = Math.max(this.lo, other.lo);
    const hi = Math.min(this.hi, other.hi);
    let first = -1;
    let last = 0;
    for (let i = lo; i < hi; i++) {
      const w = a[i]! & b[i]!;
      if (w !== 0) {
        o[i]! |= w;
        if (first < 0) first = i;
        last = i + 1;
      }
    }
    if (first < 0) return false;
    if (first < out.lo) out.lo = first;
    if (last > out.hi) out.hi = last;
    return true;
  }

  /** out |= this & raw words (a dense posting list's bitmap). */
  andWordsInto(b: Uint32Array, out: Bits): void {
    const a = this.words;
    const o = out.words;
    const hi = Math.min(this.hi, b.length);
    let first = -1;
    let last = 0;
    for (let i = this.lo; i < hi; i++) {
      const w = a[i]! & b[i]!;
      if (w !== 0) {
        o[i]! |= w;
        if (first < 0) first = i;
        last = i + 1;
      }
    }
    if (first < 0) return;
    if (first < out.lo) out.lo = first;
    if (last > out.hi) out.hi = last;
  }

  count(): number {
    const a = this.words;
    let n = 0;
    for (let i = this.lo; i < this.hi; i++) {
      const x = a[i]!;
      if (x !== 0) n += popcount(x);
    }
    return n;
  }

  /** |this ∩ other| for raw words (a dense posting list's or a facet value's bitmap), a word at a time. */
  countAnd(b: Uint32Array): number {
    const a = this.words;
    const hi = Math.min(this.hi, b.length);
    let n = 0;
    for (let i = this.lo; i < hi; i++) {
      const x = a[i]! & b[i]!;
      if (x !== 0) n += popcount(x);
    }
    return n;
  }

  /** Writes the documents in ascending order into out (as long as the count); returns how many. */
  toList(out: Uint32Array): number {
    const a = this.words;
    let n = 0;
    for (let i = this.lo; i < this.hi; i++) {
      let x = a[i]!;
      while (x !== 0) {
        const t = x & -x;
        out[n++] = (i << 5) | (31 - Math.clz32(t));
        x ^= t;
      }
    }
    return n;
  }

  /** Zeroes the range (back to the pool). */
  clear(): void {
    if (this.hi > this.lo) this.words.fill(0, this.lo, this.hi);
    this.lo = this.words.length;
    this.hi = 0;
  }
}

/** The number of bits set in a 32-bit word. */
export function popcount(word: number): number {
  let x = word;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Bitmaps of one size, reused: taken during a query, all given back at its end. */
export class BitPool {
  private free: Bits[] = [];
  private taken: Bits[] = [];
  private words = 0;

  /** Starts a query over documents below `capacity`. */
  begin(capacity: number): void {
    const words = (capacity + 31) >>> 5;
    if (words !== this.words) {
      this.free = [];
      this.words = words;
    }
  }

  take(): Bits {
    const b = this.free.pop() ?? new Bits(this.words);
    this.taken.push(b);
    return b;
  }

  /** Gives every bitmap of the query back. */
  end(): void {
    for (const b of this.taken) {
      if (b.words.length !== this.words) continue;
      b.clear();
      this.free.push(b);
    }
    this.taken = [];
  }
}

/** Sets a document's bit, growing the bitmap when the document is past its end. */
export function setBit(bits: Uint32Array, d: number): Uint32Array {
  const w = d >>> 5;
  let b = bits;
  if (w >= b.length) {
    b = new Uint32Array(Math.max(w + 1, b.length * 2));
    b.set(bits);
  }
  b[w]! |= 1 << (d & 31);
  return b;
}
