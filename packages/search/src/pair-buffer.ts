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

/** Pairs grouped by term (a counting sort): term t's documents are grouped[start[t]..start[t + 1]). */
export function byTerm(
  terms: Uint32Array,
  docs: Uint32Array,
  n: number,
): { maxTerm: number; start: Uint32Array; grouped: Uint32Array } {
  let maxTerm = 0;
  for (let i = 0; i < n; i++) if (terms[i]! > maxTerm) maxTerm = terms[i]!;
  const start = new Uint32Array(maxTerm + 2);
  for (let i = 0; i < n; i++) start[terms[i]! + 1]!++;
  for (let t = 1; t <= maxTerm + 1; t++) start[t]! += start[t - 1]!;
  const fill = start.slice(0, maxTerm + 1);
  const grouped = new Uint32Array(n);
  for (let i = 0; i < n; i++) grouped[fill[terms[i]!]!++] = docs[i]!;
  return { maxTerm, start, grouped };
}
