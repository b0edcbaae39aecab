/*
 * Typo tolerance (docs/search.md#search-as-a-search-engine): a query word of Latin letters matches a token
 * when some prefix of the token is at most k edits away from the word (optimal string alignment:
 * insertion, deletion, substitution, transposition of two adjacent letters), with k = 1 for
 * words of 5–8 letters and 2 for longer ones, decided by the word's length alone. Matching a
 * prefix finds `transfomer` in "transformers"; deciding k by the word (not by the token) is
 * why `deepseek` does not find DeepSpeed: "deepspeed" and each of its prefixes are two edits
 * from "deepseek" (the `p` inserted, the `k` changed), and an 8-letter word allows one.
 */

const LATIN_WORD = /^\p{Script=Latin}+$/u;

/** The edits a query word may have: 0 for shorter words, digits and CJK. */
export function allowedTypos(word: string): number {
  if (!LATIN_WORD.test(word)) return 0;
  if (word.length >= 9) return 2;
  if (word.length >= 5) return 1;
  return 0;
}

/**
 * Dynamic-programming rows of the edit distance between prefixes of a text and a word,
 * kept per depth so that a walk over sorted tokens reuses the rows of their common prefix.
 */
export class PrefixDistance {
  readonly rows: Int32Array[] = [];
  /** best[d]: the smallest distance between the word and a prefix of the text up to depth d. */
  readonly best: number[] = [];
  readonly n: number;

  constructor(
    readonly word: string,
    readonly k: number,
  ) {
    this.n = word.length;
    const first = new Int32Array(this.n + 1);
    for (let j = 0; j <= this.n; j++) first[j] = j;
    this.rows.push(first);
    this.best.push(this.n);
  }

  /**
   * Extends the rows from `from` to the depth of text (or until no extension can come within
   * k edits). Returns the depth reached: text.length, or the depth d whose row exceeds k.
   */
  extend(text: string, from: number): number {
    const { word, n, k } = this;
    for (let d = from + 1; d <= text.length; d++) {
      let row = this.rows[d];
      if (!row) {
        row = new Int32Array(n + 1);
        this.rows[d] = row;
      }
      const prev = this.rows[d - 1]!;
      const prev2 = d >= 2 ? this.rows[d - 2]! : undefined;
      const c = text.charCodeAt(d - 1);
      const cPrev = d >= 2 ? text.charCodeAt(d - 2) : -1;
      row[0] = d;
      let min = d;
      for (let j = 1; j <= n; j++) {
        const w = word.charCodeAt(j - 1);
        let v = prev[j - 1]! + (w === c ? 0 : 1);
        const del = prev[j]! + 1;
        if (del < v) v = del;
        const ins = row[j - 1]! + 1;
        if (ins < v) v = ins;
        if (prev2 && j >= 2 && c === word.charCodeAt(j - 2) && cPrev === w) {
          const tr = prev2[j - 2]! + 1;
          if (tr < v) v = tr;
        }
        row[j] = v;
        if (v < min) min = v;
      }
      const b = this.best[d - 1]!;
      this.best[d] = Math.min(row[n]!, b);
      if (min > k) return d;
    }
    return text.length;
  }
}

// rows reused by prefixDistance (it runs for every new token against the cached query terms)
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);
let rowC = new Int32Array(32);

/** The smallest edit distance between the word and a prefix of the text (k + 1 when over k). */
export function prefixDistance(word: string, k: number, text: string): number {
  const n = word.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(2 * n + 2);
    rowB = new Int32Array(2 * n + 2);
    rowC = new Int32Array(2 * n + 2);
  }
  let prev2 = rowA;
  let prev = rowB;
  let row = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  let best = n;
  for (let d = 1; d <= text.length; d++) {
    const c = text.charCodeAt(d - 1);
    const cPrev = d >= 2 ? text.charCodeAt(d - 2) : -1;
    row[0] = d;
    let min = d;
    for (let j = 1; j <= n; j++) {
      const w = word.charCodeAt(j - 1);
      let v = prev[j - 1]! + (w === c ? 0 : 1);
      const del = prev[j]! + 1;
      if (del < v) v = del;
      const ins = row[j - 1]! + 1;
      if (ins < v) v = ins;
      if (d >= 2 && j >= 2 && c === word.charCodeAt(j - 2) && cPrev === w) {
        const tr = prev2[j - 2]! + 1;
        if (tr < v) v = tr;
      }
      row[j] = v;
      if (v < min) min = v;
    }
    if (row[n]! < best) best = row[n]!;
    if (min > k) break;
    const t = prev2;
    prev2 = prev;
    prev = row;
    row = t;
  }
  return best <= k ? best : k + 1;
}

/**
 * The typos of a match counted as Meilisearch counts them: a first letter that differs counts
 * twice, so that `olama` is one typo from "ollama" but two from "llama" (too many for a word of
 * 5–8 letters). Returns k + 1 when over k.
 */
export function countedTypos(word: string, token: string, typos: number, k: number): number {
  const counted = word.charCodeAt(0) === token.charCodeAt(0) ? typos : typos + 1;
  return counted > k ? k + 1 : counted;
}
