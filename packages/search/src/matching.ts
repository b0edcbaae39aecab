import type { Bits } from './bitmap.ts';
import type { TagMatch } from './caches.ts';
import { Coded, combine } from './coded.ts';
import type { SearchContext } from './context.ts';
import { MAX_QUERY_TERMS, MAX_TYPO_TERMS, MAX_TYPO_WORDS } from './limits.ts';
import { keptWords } from './matching-strategy.ts';
import { CLASS_DESCRIPTION, CLASS_NAME, CLASS_TAG, matchCode } from './ranking.ts';
import { splitAndJoin } from './split-join.ts';
import type { Store } from './store.ts';
import { cjkGramsOf } from './terms.ts';
import { isCjkToken, normalize, tokens } from './text.ts';
import type { MatchingStrategy } from './types.ts';
import { allowedTypos, countedTypos, prefixDistance } from './typo.ts';
import type { Word } from './word.ts';

/*
 * Matching: the query cut into words (synonym terms of several tokens are one word); each
 * word's documents by their best match code (ranking.ts), from the postings of the tokens
 * the vocabulary expands it to, the CJK grams, and the tags; the words intersected. Every set
 * is a bitmap per match code (Coded, coded.ts), made a word of 32 documents at a time: a posting list
 * with a document per 32 of the directory is OR-ed as its bitmap, a sparser one bit by bit;
 * a word's best code per document is its codes taken from the best down, each AND NOT the
 * better ones; two words combine code by code (AND, into the code of the worse of the two). */

export type { Word } from './word.ts';

/** The documents matching every word of a query, with their match codes, and the query cut into words. */
export interface Matched {
  set: Coded;
  /** The words kept (all of them unless the matching strategy left some out). */
  words: Word[];
  terms: string[];
  /** The words the matching strategy left out, as typed (absent: none). */
  dropped?: string[];
}

/** The tags whose text a term matches: exactly, or (k > 0) within k typos (kept while no tag changes, caches.ts). */
export function tagMatches(cx: SearchContext, term: string, k: number): TagMatch {
  const { ix } = cx;
  return cx.caches.tagMatches(ix.tagVersion, `${k}:${term}`, () => {
    const pattern = isCjkToken(term) || term.length > 2 ? term : ` ${term}`;
    const tags: number[] = [];
    const typos: number[] = [];
    for (let num = 0; num < ix.tags.length; num++) {
      if (!ix.tags[num]) continue;
      if (ix.tagText[num]!.includes(pattern)) {
        tags.push(num);
        typos.push(0);
      } else if (k > 0) {
        let best = k + 1;
        for (const tok of ix.tagTokens[num]!)
          best = Math.min(best, countedTypos(term, tok, prefixDistance(term, k, tok), k));
        if (best <= k) {
          tags.push(num);
          typos.push(best);
        }
      }
    }
    return { tags, typos };
  });
}

/** The query cut into words (synonym terms spanning several tokens are one word). */
export function queryWords(ix: Store, q: string): { words: Word[]; terms: string[] } {
  const terms = [...new Set(tokens(q))].slice(0, MAX_QUERY_TERMS);
  const words: Word[] = [];
  for (let i = 0; i < terms.length; ) {
    let taken = false;
    for (const k of ix.synonymTokenCounts) {
      if (i + k > terms.length) continue;
      const set = ix.synonymOf.get(terms.slice(i, i + k).join(' '));
      if (set === undefined) continue;
      const own = terms.slice(i, i + k);
      const key = own.join(' ');
      words.push({ terms: own, synonyms: ix.synonymSets[set]!.filter((t) => t.join(' ') !== key) });
      i += k;
      taken = true;
      break;
    }
    if (!taken) {
      words.push({ terms: [terms[i]!], synonyms: [] });
      i++;
    }
  }
  return { words, terms };
}

/**
 * The typo-expanded tokens of a word a search reads: all of them up to MAX_TYPO_TERMS, else
 * that many, fewest typos first, then the most frequent (the largest posting lists).
 */
function typoTerms(ix: Store, ids: number[], typos: number[]): number[] {
  const all = ids.map((_, i) => i);
  if (all.length <= MAX_TYPO_TERMS) return all;
  const size = all.map((i) => ix.latinName.size(ids[i]!) + ix.latinDesc.size(ids[i]!));
  return all.sort((a, b) => typos[a]! - typos[b]! || size[b]! - size[a]!).slice(0, MAX_TYPO_TERMS);
}

/** The documents a term matches, by their best match code. */
export function termSet(
  cx: SearchContext,
  term: string,
  synonym: boolean,
  typosOn: boolean,
  within?: Bits,
): Coded {
  const { ix } = cx;
  const out = new Coded(cx.bits);
  const name = matchCode(CLASS_NAME, 0, synonym);
  const desc = matchCode(CLASS_DESCRIPTION, 0, synonym);
  const k = isCjkToken(term) || !typosOn || synonym ? 0 : allowedTypos(term);
  const tagged = tagMatches(cx, term, k);
  for (let i = 0; i < tagged.tags.length; i++)
    ix.tagDocs.orInto(tagged.tags[i]!, out.layer(matchCode(CLASS_TAG, tagged.typos[i]!, synonym)));
  if (isCjkToken(term)) cjkTerm(cx, term, out, name, desc, within);
  else {
    const m = ix.vocab.expand(term, k);
    if (m.exact.length > 0) {
      const nameSet = out.layer(name);
      const descSet = out.layer(desc);
      for (const t of m.exact) {
        ix.latinName.orInto(t, nameSet);
        ix.latinDesc.orInto(t, descSet);
      }
    }
    for (const i of typoTerms(ix, m.typo, m.typos)) {
      const t = m.typo[i]!;
      const typos = countedTypos(term, ix.vocab.strings[t]!, m.typos[i]!, k);
      if (typos > k) continue;
      ix.latinName.orInto(t, out.layer(matchCode(CLASS_NAME, typos, synonym)));
      ix.latinDesc.orInto(t, out.layer(matchCode(CLASS_DESCRIPTION, typos, synonym)));
    }
  }
  return out.resolve();
}

/**
 * A CJK term: a character or a pair is one posting list; a longer term intersects its pairs
 * (and the documents the earlier words left), then the text decides.
 */
function cjkTerm(cx: SearchContext, term: string, out: Coded, name: number, desc: number, within?: Bits) {
  const { ix } = cx;
  const grams = cjkGramsOf(term);
  if (grams.length === 1) {
    const id = ix.cjkIds.get(grams[0]!);
    if (id === undefined) return;
    ix.cjkName.orInto(id, out.layer(name));
    ix.cjkDesc.orInto(id, out.layer(desc));
    return;
  }
  const pairs: number[] = [];
  for (const g of grams) {
    const id = ix.cjkIds.get(g);
    if (id === undefined) return;
    if (!pairs.includes(id)) pairs.push(id);
  }
  const inText = (d: number, a: string | null, b: string | null) => {
    if (ix.plain[d] === 1) return (a?.includes(term) ?? false) || (b?.includes(term) ?? false);
    return (a ? normalize(a).includes(term) : false) || (b ? normalize(b).includes(term) : false);
  };
  for (const cls of [CLASS_NAME, CLASS_DESCRIPTION]) {
    const postings = cls === CLASS_NAME ? ix.cjkName : ix.cjkDesc;
    const layer = out.layer(cls === CLASS_NAME ? name : desc);
    pairs.sort((a, b) => postings.size(a) - postings.size(b));
    const candidates = cx.bits.take();
    postings.orInto(pairs[0]!, candidates);
    if (within) candidates.and(within);
    for (let i = 1; i < pairs.length && !candidates.empty; i++) {
      const next = cx.bits.take();
      postings.orInto(pairs[i]!, next);
      candidates.and(next);
    }
    const list = cx.docList(candidates.count());
    const n = candidates.toList(list);
    for (let i = 0; i < n; i++) {
      const d = list[i]!;
      const [a, b] =
        cls === CLASS_NAME ? (['name', 'nameEn'] as const) : (['description', 'descriptionEn'] as const);
      if (inText(d, ix.text.field(d, a) ?? null, ix.text.field(d, b) ?? null)) layer.add(d);
    }
  }
}

/**
 * The documents matching the query's words, by match code (null: the query has no word). Every
 * word must match; when no document matches them all, the matching strategy leaves words out
 * (matching-strategy.ts) and `dropped` names them.
 */
export function match(
  cx: SearchContext,
  q: string,
  typosOn: boolean,
  strategy: MatchingStrategy = 'last',
): Matched | null {
  const { ix } = cx;
  const cut = queryWords(ix, q);
  if (cut.words.length === 0) return null;
  const words = splitAndJoin(ix, cut.words);
  const all = matchWords(cx, words, typosOn);
  // combine() keeps only the codes two words share: a code left means a match
  if (strategy === 'all' || words.length === 1 || all.codes.length > 0)
    return { set: all, words, terms: cut.terms };
  const kept = keptWords(cx, words, strategy, (w) => wordMatches(cx, w, typosOn).union);
  const keptSet = kept.length === 0 ? all : matchWords(cx, kept, typosOn);
  if (kept.length === 0) return { set: all, words, terms: cut.terms };
  const dropped = words.filter((w) => !kept.includes(w)).map((w) => w.terms.join(' '));
  return { set: keptSet, words: kept, terms: kept.flatMap((w) => w.terms), dropped };
}

/** The documents matching every one of these words (each word's typos: the first MAX_TYPO_WORDS that may have some). */
export function matchWords(cx: SearchContext, words: Word[], typosOn: boolean): Coded {
  let acc: Coded | undefined;
  let typoWords = 0;
  for (const word of words) {
    // typos for the first MAX_TYPO_WORDS words that may have some; the later ones match exactly
    const typos = typosOn && typoWords < MAX_TYPO_WORDS;
    if (typos && word.terms.some((t) => !isCjkToken(t) && allowedTypos(t) > 0)) typoWords++;
    const wordSet = wordMatches(cx, word, typos, acc?.union);
    acc = acc ? combine(cx.bits, acc, wordSet) : wordSet;
    if (acc.union.empty) return acc;
  }
  return acc!;
}

/** The documents of one word: its own terms, all of them (a conjunction), or any of its alternatives. */
export function wordMatches(cx: SearchContext, word: Word, typos: boolean, within?: Bits): Coded {
  if (word.synonyms.length === 0 && word.terms.length === 1)
    return termSet(cx, word.terms[0]!, false, typos, within);
  const wordSet = new Coded(cx.bits);
  [word.terms, ...word.synonyms].forEach((alt, ai) => {
    const altSet = conjunction(cx, alt, ai > 0, typos, within);
    for (const c of altSet.codes) wordSet.layer(c).or(altSet.at[c]!);
  });
  return wordSet.resolve();
}

/** The documents matching all the terms (a word's own, or one of its synonyms). */
function conjunction(
  cx: SearchContext,
  terms: string[],
  synonym: boolean,
  typosOn: boolean,
  within?: Bits,
): Coded {
  let acc = termSet(cx, terms[0]!, synonym, typosOn, within);
  for (let i = 1; i < terms.length; i++)
    acc = combine(cx.bits, acc, termSet(cx, terms[i]!, synonym, typosOn, acc.union));
  return acc;
}
