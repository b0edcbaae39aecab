import { RELATED_LIMITS } from './limits.ts';
import { ownersOf } from './owners.ts';
import { cjkGram } from './terms.ts';
import { isCjkToken, tokens } from './text.ts';
import type { IndexedProject } from './types.ts';

/*
 * What makes two projects alike (docs/search.md#related-projects), as definitions: which
 * words of a project count, and what a shared tag, word or owner weighs. related.ts finds the
 * projects that share them through the engine's postings; the brute-force test computes the
 * same scores by reading every project's text.
 */

/** A word is rare when at most this share of the directory's name and description lists hold it… */
export const RARE_SHARE = 0.02;
/** …or at most this many (a small directory). */
export const RARE_MIN = 4;

/**
 * Weights per unit of rarity (idf), in thousandths: scores are integers, so order is exact. A
 * CJK pair weighs half a word: a Chinese word of n characters is n − 1 pairs.
 */
export const WEIGHT = { tag: 2000, owner: 2000, word: 1000, pair: 500 } as const;

/** Characters that join or modify words rather than name things: a pair with one is not a word. */
const CJK_FUNCTION_CHARS = new Set('的了和与及或在是为对于以可并也其之而由将从到被把这那该各个一');

/**
 * A word of a project: a Latin token of its name, English name, description or English
 * description (3 or more characters, not only digits), or a pair of adjacent CJK characters
 * of those texts (Chinese has no spaces: a pair is the engine's CJK term closest to a word)
 * without a function character (的, 与, 在…).
 */
export type Word = { kind: 'latin'; text: string } | { kind: 'cjk'; text: string; gram: number };

export function wordsOf(p: IndexedProject, max: number = RELATED_LIMITS.sourceWords): Word[] {
  const out: Word[] = [];
  const seen = new Set<string>();
  const add = (w: Word) => {
    if (out.length < max && !seen.has(w.text)) {
      seen.add(w.text);
      out.push(w);
    }
  };
  for (const text of [p.name, p.nameEn, p.description, p.descriptionEn]) {
    for (const t of tokens(text)) {
      if (out.length >= max) return out;
      if (!isCjkToken(t)) {
        if (t.length >= 3 && !/^\d+$/.test(t)) add({ kind: 'latin', text: t });
        continue;
      }
      const chars = [...t];
      for (let i = 0; i + 1 < chars.length; i++) {
        const a = chars[i]!;
        const b = chars[i + 1]!;
        if (CJK_FUNCTION_CHARS.has(a) || CJK_FUNCTION_CHARS.has(b)) continue;
        add({ kind: 'cjk', text: a + b, gram: cjkGram(a.codePointAt(0)!, b.codePointAt(0)!) });
      }
    }
  }
  return out;
}

/** The most documents a rare word may have (name lists and description lists counted apart). */
export const rareMax = (live: number): number => Math.max(RARE_MIN, Math.floor(live * RARE_SHARE));

/** The weight kind of a word. */
export const wordWeight = (w: Word): keyof typeof WEIGHT => (w.kind === 'cjk' ? 'pair' : 'word');

/** A feature's weight: its kind's weight times ln(1 + N / df), rounded to an integer. */
export function weightOf(kind: keyof typeof WEIGHT, live: number, df: number): number {
  return Math.round(WEIGHT[kind] * Math.log(1 + live / Math.max(1, df)));
}

/** The owners of a project's links that count (the first RELATED_LIMITS.owners). */
export const ownerFeatures = (p: IndexedProject) => ownersOf(p.linkUrls).slice(0, RELATED_LIMITS.owners);

/** Why a project is related, and how much. */
export interface RelatedHit {
  id: string;
  /** The sum of the shared features' weights, in thousandths. */
  score: number;
  /** The slugs of the tags shared, in the project's order. */
  tags: string[];
  /** The words shared, rarest first. */
  words: string[];
  /** The first owner shared, as the project's link spells it. */
  owner: string | null;
}
