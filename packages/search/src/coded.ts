import type { BitPool, Bits } from './bitmap.ts';
import { worseOf } from './ranking.ts';

/*
 * A set of documents by match code (ranking.ts), what matching (matching.ts) makes of each term
 * and word: a bitmap per code, resolved so that a document stands in its best code only; two
 * sets combine code by code (AND, into the code of the worse of the two). */

/**
 * Documents by match code: at[c] holds the documents whose code is c, the sets disjoint once
 * resolved; `codes` lists the codes present, best first.
 */
export class Coded {
  readonly at: (Bits | undefined)[] = [];
  codes: number[] = [];
  private all: Bits | undefined;

  constructor(private readonly pool: BitPool) {}

  /** The set of a code (made empty when new). */
  layer(code: number): Bits {
    let b = this.at[code];
    if (!b) {
      b = this.pool.take();
      this.at[code] = b;
      this.codes.push(code);
      this.all = undefined;
    }
    return b;
  }

  /** Keeps each document in its best code only (codes are "bigger is better"). */
  resolve(): this {
    this.codes = this.codes.filter((c) => !this.at[c]!.empty).sort((a, b) => b - a);
    if (this.codes.length > 1) {
      const seen = this.pool.take();
      for (const c of this.codes) {
        const b = this.at[c]!;
        b.andNot(seen);
        seen.or(b);
      }
      this.all = seen;
      this.codes = this.codes.filter((c) => !this.at[c]!.empty);
    }
    return this;
  }

  /** Every document of the set (resolved sets only). */
  get union(): Bits {
    if (!this.all) {
      if (this.codes.length === 1) this.all = this.at[this.codes[0]!]!;
      else {
        this.all = this.pool.take();
        for (const c of this.codes) this.all.or(this.at[c]!);
      }
    }
    return this.all;
  }

  /** The code of a document of the set (0 when it is not in it). */
  codeOf(d: number): number {
    for (const c of this.codes) if (this.at[c]!.has(d)) return c;
    return 0;
  }

  /** Keeps only the documents of a set (the filters' bitmap). */
  restrict(keep: Bits): void {
    for (const c of this.codes) this.at[c]!.and(keep);
    this.codes = this.codes.filter((c) => !this.at[c]!.empty);
    this.all = undefined;
  }
}

/** The documents in both sets, each under the worse of its two codes. */
export function combine(pool: BitPool, a: Coded, b: Coded): Coded {
  const out = new Coded(pool);
  for (const ca of a.codes)
    for (const cb of b.codes) {
      const code = worseOf(ca, cb);
      const had = out.at[code] !== undefined;
      const layer = out.layer(code);
      if (!a.at[ca]!.andInto(b.at[cb]!, layer) && !had) {
        // nothing in common: leave the code out
        out.at[code] = undefined;
        out.codes.pop();
      }
    }
  out.codes.sort((x, y) => x - y).reverse();
  return out;
}
