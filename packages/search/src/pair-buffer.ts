/*
 * The pair buffer of a batch put: (term, document) pairs added by term once the batch is read
 * (Postings.addPairs), bounded by PAIR_BATCH (limits.ts).
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
