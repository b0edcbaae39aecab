import { type Bits, setBit } from './bitmap.ts';
import { type List, type PostingLists, SMALL } from './posting-list.ts';
import { addPairs } from './postings-batch.ts';

/*
 * Posting lists of many terms (a term is a dense integer), each a sorted set of document
 * numbers. Most terms of a directory occur once or a few times, so a list is stored by size:
 * one document as a bare number (no allocation), up to SMALL documents as a plain array, more
 * as a Uint32Array grown by doubling (4 bytes a document). Inserting the highest document
 * (what a build does) appends; any other insert or a removal is a binary search and a move
 * of the tail.
 */

const NONE: number[] = [];

export class Postings implements PostingLists {
  /** (Written by postings-batch.ts too.) */
  lists: (List | undefined)[] = [];
  /**
   * The bitmap of a list with at least a document per 32 of the directory, made when a query
   * first reads it that way (orInto) and kept up to date by every write: OR-ing it into a
   * query's set costs a word per 32 documents instead of a step per document. At that
   * density the bitmap is no larger than the list.
   */
  dense: (Uint32Array | undefined)[] = [];
  /** Lengths of the Uint32Array lists (their capacity is larger). */
  lens = new Uint32Array(1024);

  /** The list of a term and its length (0 when none). */
  get(term: number): List | undefined {
    return this.lists[term];
  }

  size(term: number): number {
    const l = this.lists[term];
    if (l === undefined) return 0;
    if (typeof l === 'number') return 1;
    if (Array.isArray(l)) return l.length;
    return this.lens[term]!;
  }

  add(term: number, doc: number): void {
    const bits = this.dense[term];
    if (bits) this.dense[term] = setBit(bits, doc);
    this.addToList(term, doc);
  }

  private addToList(term: number, doc: number): void {
    // keep both arrays dense (a far index would turn a JS array into a slow dictionary)
    while (this.lists.length <= term) this.lists.push(undefined);
    if (this.lens.length <= term) {
      const lens = new Uint32Array(Math.max(term + 1, this.lens.length * 2));
      lens.set(this.lens);
      this.lens = lens;
    }
    const l = this.lists[term];
    if (l === undefined) {
      this.lists[term] = doc;
    } else if (typeof l === 'number') {
      if (l === doc) return;
      this.lists[term] = l < doc ? [l, doc] : [doc, l];
    } else if (Array.isArray(l)) {
      const last = l[l.length - 1]!;
      if (last === doc) return;
      const at = last < doc ? l.length : lowerBound(l, l.length, doc);
      if (l[at] === doc) return;
      if (l.length < SMALL) {
        if (at === l.length) l.push(doc);
        else l.splice(at, 0, doc);
      } else {
        const t = new Uint32Array(SMALL * 4);
        for (let i = 0; i < at; i++) t[i] = l[i]!;
        t[at] = doc;
        for (let i = at; i < l.length; i++) t[i + 1] = l[i]!;
        this.lists[term] = t;
        this.lens[term] = l.length + 1;
      }
    } else {
      let n = this.lens[term]!;
      if (n > 0 && l[n - 1] === doc) return;
      const at = n > 0 && l[n - 1]! < doc ? n : lowerBound(l, n, doc);
      if (at < n && l[at] === doc) return;
      let t = l;
      if (n === l.length) {
        t = new Uint32Array(l.length * 2);
        t.set(l);
        this.lists[term] = t;
      }
      if (at < n) t.copyWithin(at + 1, at, n);
      t[at] = doc;
      this.lens[term] = ++n;
    }
  }

  delete(term: number, doc: number): void {
    const bits = this.dense[term];
    if (bits && doc >>> 5 < bits.length) bits[doc >>> 5]! &= ~(1 << (doc & 31));
    const l = this.lists[term];
    if (l === undefined) return;
    if (typeof l === 'number') {
      if (l !== doc) return;
      this.lists[term] = undefined;
    } else if (Array.isArray(l)) {
      const at = lowerBound(l, l.length, doc);
      if (l[at] !== doc) return;
      l.splice(at, 1);
      if (l.length === 1) this.lists[term] = l[0]!;
    } else {
      const n = this.lens[term]!;
      const at = lowerBound(l, n, doc);
      if (at >= n || l[at] !== doc) return;
      l.copyWithin(at, at + 1, n);
      this.lens[term] = n - 1;
    }
  }

  /** A term's documents as an array-like of its length (a view: valid until the next write). */
  view(term: number): { docs: ArrayLike<number>; n: number } {
    const l = this.lists[term];
    if (l === undefined) return { docs: NONE, n: 0 };
    if (typeof l === 'number') return { docs: [l], n: 1 };
    return { docs: l, n: Array.isArray(l) ? l.length : this.lens[term]! };
  }

  /** Calls visit for each document of a term (no allocation). */
  forEach(term: number, visit: (doc: number) => void): void {
    const l = this.lists[term];
    if (l === undefined) return;
    if (typeof l === 'number') visit(l);
    else if (Array.isArray(l)) for (let i = 0; i < l.length; i++) visit(l[i]!);
    else {
      const n = this.lens[term]!;
      for (let i = 0; i < n; i++) visit(l[i]!);
    }
  }

  /**
   * Adds many (term, document) pairs at once, grouped by term first (a counting sort), so that
   * each list is reached once per batch instead of once per pair: a build's cost was mostly
   * cache misses on lists touched in random order. Pairs come in document order; a term's
   * repeated pairs for one document are dropped.
   */
  addPairs(terms: Uint32Array, docs: Uint32Array, n: number): void {
    addPairs(this, terms, docs, n);
  }

  /**
   * Adds a term's documents to a bitmap: the list's bitmap OR-ed a word at a time when the
   * list holds at least one document per `words` (the bitmap's length in words), else one
   * document at a time.
   */
  orInto(term: number, out: Bits): void {
    const l = this.lists[term];
    if (l === undefined) return;
    if (typeof l === 'number') {
      out.add(l);
      return;
    }
    if (Array.isArray(l)) {
      out.addList(l, l.length);
      return;
    }
    const n = this.lens[term]!;
    if (n < out.words.length || n < 256) {
      out.addList(l, n);
      return;
    }
    out.orWords(this.denseOf(term, l, n, out.words.length));
  }

  /**
   * Adds a term's documents that are in `within` to `out`: the list's bitmap AND-ed a word at
   * a time when the list is as dense as in orInto, else a test per document.
   */
  andInto(term: number, within: Bits, out: Bits): void {
    const l = this.lists[term];
    if (l === undefined) return;
    if (typeof l === 'number') {
      if (within.has(l)) out.add(l);
      return;
    }
    const n = Array.isArray(l) ? l.length : this.lens[term]!;
    if (Array.isArray(l) || n < out.words.length || n < 256) {
      for (let i = 0; i < n; i++) if (within.has(l[i]!)) out.add(l[i]!);
      return;
    }
    within.andWordsInto(this.denseOf(term, l, n, out.words.length), out);
  }

  /**
   * How many of a term's documents are in a bitmap: the list's bitmap AND-ed and counted a
   * word at a time when the list is as dense as in orInto, else a test per document.
   */
  countIn(term: number, bits: Bits): number {
    const l = this.lists[term];
    if (l === undefined) return 0;
    if (typeof l === 'number') return bits.has(l) ? 1 : 0;
    const n = Array.isArray(l) ? l.length : this.lens[term]!;
    if (Array.isArray(l) || n < bits.words.length || n < 256) {
      let c = 0;
      for (let i = 0; i < n; i++) if (bits.has(l[i]!)) c++;
      return c;
    }
    return bits.countAnd(this.denseOf(term, l, n, bits.words.length));
  }

  /** What countIn costs (steps of a word or a document): for choosing it over a pass over documents. */
  countCost(term: number, words: number): number {
    const n = this.size(term);
    return n < words || n < 256 || Array.isArray(this.lists[term]) ? n : words;
  }

  /** A typed list's bitmap, made on first use and kept up to date by every write after. */
  private denseOf(term: number, l: Uint32Array, n: number, words: number): Uint32Array {
    let bits = this.dense[term];
    if (!bits) {
      bits = new Uint32Array(words);
      for (let i = 0; i < n; i++) bits = setBit(bits, l[i]!);
      while (this.dense.length < term) this.dense.push(undefined);
      this.dense[term] = bits;
    }
    return bits;
  }

  /** Whether a term's list holds a document (binary search). */
  has(term: number, doc: number): boolean {
    const l = this.lists[term];
    if (l === undefined) return false;
    if (typeof l === 'number') return l === doc;
    const n = Array.isArray(l) ? l.length : this.lens[term]!;
    const at = lowerBound(l, n, doc);
    return at < n && l[at] === doc;
  }

  /** Bytes held: 4 a document in a typed list, 8 in an array, plus each list's overhead. */
  bytes(): number {
    let b = this.lists.length * 8;
    for (const bits of this.dense) if (bits) b += bits.byteLength;
    for (let t = 0; t < this.lists.length; t++) {
      const l = this.lists[t];
      if (l === undefined || typeof l === 'number') continue;
      b += Array.isArray(l) ? 32 + l.length * 8 : 160 + l.byteLength;
    }
    return b + this.lens.byteLength;
  }
}

function lowerBound(l: ArrayLike<number>, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
