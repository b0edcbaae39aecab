import { isCjkToken } from './text.ts';

/* The brute force's typos (property.test.ts): a full edit-distance matrix, no automaton. */

export function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

export const allowed = (w: string) =>
  !/^\p{Script=Latin}+$/u.test(w) ? 0 : w.length >= 9 ? 2 : w.length >= 5 ? 1 : 0;

/** Typos of a term against a token: 0 exact, 1–2 a prefix within the allowed edits, undefined no match. */
export function termToken(term: string, token: string, k: number): number | undefined {
  if (
    isCjkToken(term) ? token.includes(term) : term.length <= 2 ? token.startsWith(term) : token.includes(term)
  )
    return 0;
  let best: number | undefined;
  for (let i = 0; i <= token.length && k > 0; i++) {
    const dist = osa(term, token.slice(0, i));
    if (dist <= k && (best === undefined || dist < best)) best = dist;
  }
  // a first letter that differs counts twice
  if (best !== undefined && term[0] !== token[0]) best++;
  return best !== undefined && best <= k ? best : undefined;
}
