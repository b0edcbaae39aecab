/*
 * The pair buffer of a build, and the scratch sets of a list (typed arrays as large as the
 * directory, allocated once and reused). A search's sets are bitmaps (bitmap.ts).
 */

/** (term, document) pairs, appended in document order. */
export class PairBuffer {
  terms = new Uint32Array(1024);
  docs = new Uint32Array(1024);
  n = 0;

  push(term: number, doc: number) {
    if (this.n === this.terms.length) {
      const t = new Uint32Array(this.n * 2);
      t.set(this.terms);
      this.terms = t;
      const d = new Uint32Array(this.n * 2);
      d.set(this.docs);
      this.docs = d;
    }
    this.terms[this.n] = term;
    this.docs[this.n++] = doc;
  }
}

/** A set of documents with a byte each (a match code or a score), reusable across queries. */
export class DocSet {
  stamp: Uint32Array;
  code: Uint8Array;
  list: Uint32Array;
  n = 0;
  gen = 1;

  constructor(capacity: number) {
    this.stamp = new Uint32Array(capacity);
    this.code = new Uint8Array(capacity);
    this.list = new Uint32Array(capacity);
  }

  clear(capacity: number): void {
    if (this.stamp.length < capacity) {
      this.stamp = new Uint32Array(capacity);
      this.code = new Uint8Array(capacity);
      this.list = new Uint32Array(capacity);
      this.gen = 0;
    }
    this.gen++;
    if (this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.gen = 1;
    }
    this.n = 0;
  }

  has(d: number): boolean {
    return this.stamp[d] === this.gen;
  }

  /** Adds d with a code, or keeps the better (larger) code when d is in already. */
  best(d: number, code: number): void {
    if (this.stamp[d] !== this.gen) {
      this.stamp[d] = this.gen;
      this.code[d] = code;
      // the list holds each document once: it is as long as the directory
      this.list[this.n++] = d;
    } else if (code > this.code[d]!) this.code[d] = code;
  }
}

// the scratch set slots (a list without q: the documents of any of several tags)
export const SLOT_SEEN = 0;

/** The scratch sets of one index, by slot. */
export class Scratch {
  private readonly sets: DocSet[] = [];

  /** The set of a slot, emptied, able to hold documents below `capacity`. */
  acquire(slot: number, capacity: number): DocSet {
    let s = this.sets[slot];
    if (!s) {
      s = new DocSet(Math.max(1024, capacity));
      this.sets[slot] = s;
    }
    s.clear(capacity);
    return s;
  }
}
