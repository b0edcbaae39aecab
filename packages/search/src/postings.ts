import { type Bits, setBit } from './bitmap.ts';
import { lowerBound, PostingLists } from './posting-list.ts';
import { addPairs } from './postings-batch.ts';

/*
 * Posting lists of many terms (a term is a dense integer), each a sorted set of document
 * numbers. Most terms of a directory occur once or a few times, so a list is stored by size
 * (posting-list.ts): one document inline, a few in a run of a shared array, more in an array
 * of their own (4 bytes a document). Inserting the highest document (what a build does)
 * appends; any other insert or a removal is a binary search and a move of the tail.
 */

const NONE = new Uint32Array(0);

export class Postings extends PostingLists {
  /**
   * The bitmap of a list with at least a document per 32 of the directory, made when a query
   * first reads it that way (orInto) and kept up to date by every write: OR-ing it into a
   * query's set costs a word per 32 documents instead of a step per document. At that
   * density the bitmap is no larger than the list.
   */
  dense: (Uint32Array | undefined)[] = [];

  size(term: number): number {
    return term < this.lens.length ? this.lens[term]! : 0;
  }

  override add(term: number, doc: number): void {
    const bits = this.dense[term];
    if (bits) this.dense[term] = setBit(bits, doc);
    super.add(term, doc);
  }

  override delete(term: number, doc: number): void {
    const bits = this.dense[term];
    if (bits && doc >>> 5 < bits.length) bits[doc >>> 5]! &= ~(1 << (doc & 31));
    super.delete(term, doc);
  }

  /** A term's documents as an array-like of its length (a view: valid until the next write). */
  view(term: number): { docs: ArrayLike<number>; n: number } {
    const n = this.size(term);
    if (n === 0) return { docs: NONE, n: 0 };
    const big = this.big.get(term);
    if (big) return { docs: big, n };
    if (n === 1) return { docs: [this.at[term]!], n: 1 };
    const from = this.at[term]!;
    return { docs: this.slab.subarray(from, from + n), n };
  }

  /** Calls visit for each document of a term. */
  forEach(term: number, visit: (doc: number) => void): void {
    const { docs, n } = this.view(term);
    for (let i = 0; i < n; i++) visit(docs[i]!);
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

  /** The list of a term when it is long enough to be read as a bitmap of `words` words. */
  private denseList(term: number, n: number, words: number): Uint32Array | undefined {
    if (n < words || n < 256) return undefined;
    const big = this.big.get(term);
    return big && this.denseOf(term, big, n, words);
  }

  /**
   * Adds a term's documents to a bitmap: the list's bitmap OR-ed a word at a time when the
   * list holds at least one document per `words` (the bitmap's length in words), else one
   * document at a time.
   */
  orInto(term: number, out: Bits): void {
    const n = this.size(term);
    if (n === 0) return;
    if (n === 1 && !this.big.has(term)) {
      out.add(this.at[term]!);
      return;
    }
    const bits = this.denseList(term, n, out.words.length);
    if (bits) out.orWords(bits);
    else out.addList(this.view(term).docs, n);
  }

  /**
   * Adds a term's documents that are in `within` to `out`: the list's bitmap AND-ed a word at
   * a time when the list is as dense as in orInto, else a test per document.
   */
  andInto(term: number, within: Bits, out: Bits): void {
    const n = this.size(term);
    if (n === 0) return;
    const bits = this.denseList(term, n, out.words.length);
    if (bits) {
      within.andWordsInto(bits, out);
      return;
    }
    const { docs } = this.view(term);
    for (let i = 0; i < n; i++) if (within.has(docs[i]!)) out.add(docs[i]!);
  }

  /**
   * How many of a term's documents are in a bitmap: the list's bitmap AND-ed and counted a
   * word at a time when the list is as dense as in orInto, else a test per document.
   */
  countIn(term: number, bits: Bits): number {
    const n = this.size(term);
    if (n === 0) return 0;
    const dense = this.denseList(term, n, bits.words.length);
    if (dense) return bits.countAnd(dense);
    const { docs } = this.view(term);
    let c = 0;
    for (let i = 0; i < n; i++) if (bits.has(docs[i]!)) c++;
    return c;
  }

  /** What countIn costs (steps of a word or a document): for choosing it over a pass over documents. */
  countCost(term: number, words: number): number {
    const n = this.size(term);
    return n < words || n < 256 || !this.big.has(term) ? n : words;
  }

  /** A big list's bitmap, made on first use and kept up to date by every write after. */
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
    const n = this.size(term);
    if (n === 0) return false;
    const big = this.big.get(term);
    if (!big && n === 1) return this.at[term] === doc;
    const docs = big ?? this.slab;
    const from = big ? 0 : this.at[term]!;
    const at = lowerBound(docs, from, n, doc);
    return at < n && docs[from + at] === doc;
  }

  /** Bytes held: the per-term arrays, the slab, the big lists and the bitmaps. */
  bytes(): number {
    let b = this.lens.byteLength + this.at.byteLength + this.cap.byteLength + this.slab.byteLength;
    for (const l of this.big.values()) b += 160 + l.byteLength;
    for (const bits of this.dense) if (bits) b += bits.byteLength;
    return b + this.dense.length * 8;
  }
}
