import { setBit } from './bitmap.ts';
import { byTerm } from './pair-buffer.ts';
import { type PostingLists, SMALL } from './posting-list.ts';

/** What a batch append writes besides the lists: the bitmaps of dense lists (Postings). */
interface Batched extends PostingLists {
  dense: (Uint32Array | undefined)[];
}

/**
 * A batch put's pairs added to postings by term (Postings.addPairs): a term's documents that
 * come after its list's last are appended in one copy; anything else takes the one-by-one path.
 */
export function addPairs(p: Batched, terms: Uint32Array, docs: Uint32Array, n: number): void {
  if (n === 0) return;
  const { maxTerm, start, grouped } = byTerm(terms, docs, n);
  p.fit(maxTerm);
  for (let t = 0; t <= maxTerm; t++) {
    const from = start[t]!;
    const to = start[t + 1]!;
    if (from === to) continue;
    // the run, ascending and without repeats, or the slow path
    let ascending = true;
    let unique = 0;
    for (let i = from; i < to; i++) {
      const d = grouped[i]!;
      if (i > from && d === grouped[i - 1]) continue;
      if (i > from && d < grouped[i - 1]!) ascending = false;
      grouped[from + unique++] = d;
    }
    const len = p.lens[t]!;
    const big = p.big.get(t);
    if (!ascending || (len > 0 && !big)) {
      for (let i = from; i < from + unique; i++) p.add(t, grouped[i]!);
      continue;
    }
    if (big && len > 0 && big[len - 1]! >= grouped[from]!) {
      for (let i = from; i < from + unique; i++) p.add(t, grouped[i]!);
      continue;
    }
    const bits = p.dense[t];
    if (bits) {
      let b = bits;
      for (let i = from; i < from + unique; i++) b = setBit(b, grouped[i]!);
      p.dense[t] = b;
    }
    if (!big) {
      if (unique === 1) {
        p.at[t] = grouped[from]!;
        p.lens[t] = 1;
      } else if (unique <= SMALL) p.place(t, grouped, from, unique);
      else {
        p.big.set(t, grouped.slice(from, from + unique));
        p.lens[t] = unique;
      }
      continue;
    }
    let target = big;
    if (len + unique > big.length) {
      target = new Uint32Array(Math.max(2 * big.length, len + unique));
      target.set(big.subarray(0, len));
      p.big.set(t, target);
    }
    target.set(grouped.subarray(from, from + unique), len);
    p.lens[t] = len + unique;
  }
}
