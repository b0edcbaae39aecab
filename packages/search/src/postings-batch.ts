import { setBit } from './bitmap.ts';
import { byTerm } from './pair-buffer.ts';
import { type PostingLists, SMALL } from './posting-list.ts';

/**
 * A batch put's pairs added to postings by term (Postings.addPairs): a term's documents that
 * come after its list's last are appended in one copy; anything else takes the one-by-one path.
 */
export function addPairs(p: PostingLists, terms: Uint32Array, docs: Uint32Array, n: number): void {
  if (n === 0) return;
  const { maxTerm, start, grouped } = byTerm(terms, docs, n);
  while (p.lists.length <= maxTerm) p.lists.push(undefined);
  if (p.lens.length <= maxTerm) {
    const lens = new Uint32Array(Math.max(maxTerm + 1, p.lens.length * 2));
    lens.set(p.lens);
    p.lens = lens;
  }
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
    const l = p.lists[t];
    if (!ascending || (l !== undefined && !(l instanceof Uint32Array))) {
      for (let i = from; i < from + unique; i++) p.add(t, grouped[i]!);
      continue;
    }
    const bits = p.dense[t];
    if (bits) {
      let b = bits;
      for (let i = from; i < from + unique; i++) b = setBit(b, grouped[i]!);
      p.dense[t] = b;
    }
    if (l === undefined) {
      if (unique === 1) p.lists[t] = grouped[from]!;
      else if (unique <= SMALL) p.lists[t] = Array.from(grouped.subarray(from, from + unique));
      else {
        p.lists[t] = grouped.slice(from, from + unique);
        p.lens[t] = unique;
      }
      continue;
    }
    const len = p.lens[t]!;
    if (len > 0 && l[len - 1]! >= grouped[from]!) {
      for (let i = from; i < from + unique; i++) p.add(t, grouped[i]!);
      continue;
    }
    let target = l;
    if (len + unique > l.length) {
      target = new Uint32Array(Math.max(2 * l.length, len + unique));
      target.set(l.subarray(0, len));
      p.lists[t] = target;
    }
    target.set(grouped.subarray(from, from + unique), len);
    p.lens[t] = len + unique;
  }
}
