import { pinyin } from 'pinyin-pro';

/*
 * The one tokenizer of the directory (the engine indexes with it; packages/db re-exports it).
 *
 * Text is normalised (NFKD, marks stripped, lower case) and cut into tokens: runs of CJK
 * characters and runs of other letters/digits; everything else separates. Neither PGlite nor
 * PostgreSQL segments Chinese, so a CJK run is one token and CJK words are found as substrings
 * of it (see search-index.ts for how a query term matches).
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}]+/gu;
const HAN = /\p{Script=Han}/u;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function normalize(s: string): string {
  // ASCII has nothing to decompose (the common case of English text, at a fraction of the cost)
  if (isAscii(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Tokens of a text: CJK runs and runs of other letters/digits, normalised. */
export function tokens(s: string | null | undefined): string[] {
  return s ? tokensOfNormalized(normalize(s)) : [];
}

/** Tokens of a text normalize() returned already. */
export function tokensOfNormalized(normalized: string): string[] {
  const out: string[] = [];
  for (const run of normalized.match(RUNS) ?? []) {
    // a run of letters and digits that mixes CJK and other characters is split by script
    if (CJK.test(run)) splitScripts(run, out);
    else out.push(run);
  }
  return out;
}

function splitScripts(run: string, out: string[]) {
  let current = '';
  let cjk = false;
  for (const ch of run) {
    const isCjk = CJK.test(ch);
    if (current && isCjk !== cjk) {
      out.push(current);
      current = '';
    }
    cjk = isCjk;
    current += ch;
  }
  if (current) out.push(current);
}

const NON_CJK = /[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** The CJK runs of a text, one space between them: two texts with the same skeleton hold the same CJK substrings. */
export const cjkSkeleton = (s: string): string => s.replace(NON_CJK, ' ');

/** Whether a token is a CJK run (tokens never mix scripts). */
export const isCjkToken = (t: string): boolean => CJK.test(t);

/**
 * A name spelled in pinyin, once for both uses: its syllables (one per Chinese character)
 * and its sort key. One conversion with non-Chinese runs kept in place (pinyin-pro's
 * `consecutive`), the syllables being the elements that stand for a Chinese character: a
 * name is converted once per write instead of twice (the conversion is most of a write).
 */
function spell(name: string): { syllables: string[]; sortKey: string } {
  if (lastSpelled?.name === name) return lastSpelled.spelled;
  let spelled: { syllables: string[]; sortKey: string };
  if (!HAN.test(name)) spelled = { syllables: [], sortKey: normalize(name).replace(/\s+/g, ' ').trim() };
  else {
    const parts = pinyin(name, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true });
    let syllables: string[] = [];
    let at = 0;
    let aligned = true;
    for (const part of parts) {
      const cp = name.codePointAt(at);
      if (cp !== undefined && HAN.test(String.fromCodePoint(cp))) {
        // a Chinese character: its syllable
        at += cp > 0xffff ? 2 : 1;
        if (!/^[a-z]+$/.test(part)) aligned = false;
        const syllable = normalize(part).replace(/[^a-z]/g, '');
        if (syllable) syllables.push(syllable);
      } else at += part.length;
    }
    // a character pinyin-pro does not know comes back as it is: then the syllables one by one
    if (!aligned || at !== name.length)
      syllables = pinyin(name, { toneType: 'none', type: 'array', nonZh: 'removed', v: true })
        .map((p) => normalize(p).replace(/[^a-z]/g, ''))
        .filter(Boolean);
    spelled = { syllables, sortKey: normalize(parts.join(' ')).replace(/\s+/g, ' ').trim() };
  }
  lastSpelled = { name, spelled };
  return spelled;
}

let lastSpelled: { name: string; spelled: { syllables: string[]; sortKey: string } } | undefined;

/** Toneless pinyin syllables of the Chinese characters of a name (other characters left out). */
export function pinyinSyllables(name: string): string[] {
  return spell(name).syllables;
}

/** Sort key of a name: Chinese characters as pinyin, so that 百川 sorts with "b" (C collation). */
export function nameSortKey(name: string): string {
  return spell(name).sortKey;
}

/**
 * Compares two strings by Unicode code points (the byte order of UTF-8 and of PostgreSQL's C
 * collation), which differs from JavaScript's `<` only for surrogates against U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // surrogates (code points above U+FFFF) sort after every other BMP character
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
