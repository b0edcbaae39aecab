import { brevityOf, MAX_BREVITY } from './rules/coverage.ts';
import {
  cjkSkeleton,
  isCjkToken,
  nameSortKey,
  normalize,
  pinyinSyllables,
  tokens,
  tokensOfNormalized,
} from './text.ts';
import type { IndexedProject } from './types.ts';

/*
 * What a project puts into the engine, computed from its text alone: the Latin tokens and CJK
 * grams of its name-class and description fields, its keys (whole-key and key-prefix rank
 * tiers) and their short prefixes, its name sort key. Recomputed from the stored project to take it out again.
 */

/** Keys per document: name, nameEn, slug, full pinyin, initials (ranking.ts KEY_FIELDS). */
export const KEYS = 5;

/** Separates the keys in Terms.keys. */
export const SEP = '\u0001';

/** What a project puts into the postings (computed from its text; recomputed to take it out). */
export interface Terms {
  // (with repeats: adding a document to a list twice is a no-op, cheaper than a Set per project)
  latinName: string[];
  latinDesc: string[];
  /** Keys of CJK characters and pairs (cjkGram). */
  cjkName: number[];
  cjkDesc: number[];
  /** SEP-separated keys: name, nameEn, slug (tokens without spaces), full pinyin, initials. */
  keys: string;
  /** Where each key starts in `keys` (after its SEP), and its length. */
  keyAt: number[];
  keyLen: number[];
  /** The codes (keyPrefixCode) of the first 1 to KEY_PREFIX_MAX code units of each key, each once. */
  keyPrefixes: number[];
  nameKey: string;
  /** How short the project's shortest name is (rules/coverage.ts brevityOf). */
  brevity: number;
  /** Whether normalising leaves the texts' CJK runs as they are (CJK substrings can then be checked on the raw text). */
  plain: boolean;
}

/** The longest key prefix kept as a posting list (store.ts keyPrefix): longer ones are a range of byKey. */
export const KEY_PREFIX_MAX = 3;

/**
 * A number for the first n (1 to KEY_PREFIX_MAX) UTF-16 code units of a text: digits
 * 1–65536 in base 65537, so that texts of different lengths never share one (and numbers hash
 * faster than strings).
 */
export function keyPrefixCode(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 65537 + s.charCodeAt(from + i) + 1;
  return v;
}

/** The key of a CJK character (its code point) or pair (both code points): numbers hash faster than strings. */
export const cjkGram = (a: number, b?: number) => (b === undefined ? a : (a + 1) * 0x200000 + b);

/** The keys of a CJK term's characters (one) or pairs (two or more). */
export function cjkGramsOf(t: string): number[] {
  const cps: number[] = [];
  for (const ch of t) cps.push(ch.codePointAt(0)!);
  if (cps.length === 1) return [cjkGram(cps[0]!)];
  const out: number[] = [];
  for (let i = 0; i + 1 < cps.length; i++) out.push(cjkGram(cps[i]!, cps[i + 1]!));
  return out;
}

function addCjkGrams(out: number[], t: string) {
  let prev = -1;
  for (let i = 0; i < t.length; i++) {
    let cp = t.charCodeAt(i);
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < t.length) cp = t.codePointAt(i++)!;
    out.push(cp);
    if (prev >= 0) out.push(cjkGram(prev, cp));
    prev = cp;
  }
}

function split(toks: string[], latin: string[], cjk: number[]) {
  for (const t of toks) {
    if (isCjkToken(t)) addCjkGrams(cjk, t);
    else latin.push(t);
  }
}

export function termsOf(p: IndexedProject): Terms {
  const name = normalize(p.name);
  const nameEn = p.nameEn ? normalize(p.nameEn) : '';
  const description = normalize(p.description);
  const descriptionEn = p.descriptionEn ? normalize(p.descriptionEn) : '';
  const syllables = pinyinSyllables(p.name);
  const nameToks = tokensOfNormalized(name);
  // the name spelled in pinyin, its other words kept in place ("通义 UI 1" → tongyiui1, its
  // initials tyu1): a name is a key as a whole, so that a word of it alone is only its prefix
  const { full, initials } = spelledKeys(nameToks, syllables);
  const nameEnToks = tokensOfNormalized(nameEn);
  const slugToks = tokens(p.slug);
  const latinName: string[] = [];
  const cjkName: number[] = [];
  split(nameToks, latinName, cjkName);
  split(nameEnToks, latinName, cjkName);
  split(slugToks, latinName, cjkName);
  for (const s of syllables) latinName.push(s);
  if (full) {
    latinName.push(full);
    latinName.push(initials);
  }
  const latinDesc: string[] = [];
  const cjkDesc: number[] = [];
  split(tokensOfNormalized(description), latinDesc, cjkDesc);
  split(tokensOfNormalized(descriptionEn), latinDesc, cjkDesc);
  const keyList = [nameToks.join(''), nameEnToks.join(''), slugToks.join(''), full, initials];
  const keyAt: number[] = [];
  const keyLen: number[] = [];
  const keyPrefixes: number[] = [];
  let at = 1;
  for (const k of keyList) {
    keyAt.push(at);
    keyLen.push(k.length);
    at += k.length + 1;
    for (let n = 1; n <= KEY_PREFIX_MAX && n <= k.length; n++) {
      const code = keyPrefixCode(k, 0, n);
      if (!keyPrefixes.includes(code)) keyPrefixes.push(code);
    }
  }
  const same = (raw: string | null, normalized: string) =>
    !raw || cjkSkeleton(raw) === cjkSkeleton(normalized);
  return {
    latinName,
    latinDesc,
    cjkName,
    cjkDesc,
    // one join: a flat string (a template literal would keep a chain of concatenations per document)
    keys: ['', ...keyList, ''].join(SEP),
    keyAt,
    keyLen,
    keyPrefixes,
    nameKey: nameSortKey(p.name),
    brevity: Math.min(
      brevityOf(nameToks.length, full.length > 0 ? full.length : keyList[0]!.length),
      nameEnToks.length > 0 ? brevityOf(nameEnToks.length, keyList[1]!.length) : MAX_BREVITY,
    ),
    plain:
      same(p.name, name) &&
      same(p.nameEn, nameEn) &&
      same(p.description, description) &&
      same(p.descriptionEn, descriptionEn),
  };
}

/** The full pinyin and initials keys of a name: its CJK runs spelled, its other tokens as they are. */
function spelledKeys(nameToks: string[], syllables: string[]): { full: string; initials: string } {
  if (syllables.length === 0) return { full: '', initials: '' };
  let full = '';
  let initials = '';
  let at = 0;
  for (const t of nameToks) {
    if (isCjkToken(t)) {
      // one syllable per Chinese character of the run (other CJK characters have none)
      for (const ch of t) {
        if (!/\p{Script=Han}/u.test(ch)) continue;
        const s = syllables[at++];
        if (s === undefined) continue;
        full += s;
        initials += s[0];
      }
    } else {
      full += t;
      initials += t[0];
    }
  }
  // syllables not aligned with the characters (pinyin-pro spelled them otherwise): all of them
  if (at !== syllables.length)
    return { full: syllables.join(''), initials: syllables.map((s) => s[0]).join('') };
  return { full, initials };
}

/**
 * A monotone number for an id: its first 7 characters in base 128 (a character from U+007E on
 * counts as the largest and ends the number). Ids compare by this number first and by their
 * text only on a tie, which keeps id order (code points) at the cost of a number compare.
 */
export function idNumber(id: string): number {
  let v = 0;
  let stopped = false;
  for (let i = 0; i < 7; i++) {
    let digit = 0;
    if (!stopped && i < id.length) {
      const c = id.charCodeAt(i);
      if (c < 126) digit = c + 1;
      else {
        digit = 127;
        stopped = true;
      }
    }
    v = v * 128 + digit;
  }
  return v;
}
