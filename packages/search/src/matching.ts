import {
  type DocSet,
  SLOT_ACC,
  SLOT_ALT,
  SLOT_ALT_NEXT,
  SLOT_COUNT,
  SLOT_NEXT,
  SLOT_TERM,
  SLOT_WORD,
} from './doc-set.ts';
import { CLASS_DESCRIPTION, CLASS_NAME, CLASS_TAG, matchCode, worseOf } from './ranking.ts';
import type { Store } from './store.ts';
import { cjkGramsOf } from './terms.ts';
import { isCjkToken, MAX_QUERY_TERMS, normalize, tokens } from './text.ts';
import { allowedTypos, prefixDistance } from './typo.ts';

/*
 * Matching: the query cut into words (synonym terms of several tokens are one word); each
 * word's documents with their best match code (ranking.ts), from the postings of the tokens
 * the vocabulary expands it to, the CJK grams, and the tags; the words intersected.
 */

/** A query word: the terms that must all match, and its synonyms' terms (each a conjunction). */
export interface Word {
  terms: string[];
  synonyms: string[][];
}

/** The documents matching every word of a query, with their match codes, and the query cut into words. */
export interface Matched {
  set: DocSet;
  words: Word[];
  terms: string[];
}

/** The tags whose text a term matches: exactly, or (k > 0) within k typos. */
export function tagMatches(ix: Store, term: string, k: number): { tags: number[]; typos: number[] } {
  if (ix.tagMatchVersion !== ix.tagVersion) {
    ix.tagMatchCache.clear();
    ix.tagMatchVersion = ix.tagVersion;
  }
  const key = `${k}:${term}`;
  const hit = ix.tagMatchCache.get(key);
  if (hit) return hit;
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
      for (const tok of ix.tagTokens[num]!) best = Math.min(best, prefixDistance(term, k, tok));
      if (best <= k) {
        tags.push(num);
        typos.push(best);
      }
    }
  }
  const m = { tags, typos };
  if (ix.tagMatchCache.size >= 512) ix.tagMatchCache.clear();
  ix.tagMatchCache.set(key, m);
  return m;
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

/** The documents a term matches, each with its best match code, into `out`. */
export function termSet(
  ix: Store,
  term: string,
  synonym: boolean,
  typosOn: boolean,
  out: DocSet,
  within?: DocSet,
) {
  const name = matchCode(CLASS_NAME, 0, synonym);
  const desc = matchCode(CLASS_DESCRIPTION, 0, synonym);
  const k = isCjkToken(term) || !typosOn || synonym ? 0 : allowedTypos(term);
  const tagged = tagMatches(ix, term, k);
  for (let i = 0; i < tagged.tags.length; i++)
    ix.tagDocs.into(tagged.tags[i]!, out, matchCode(CLASS_TAG, tagged.typos[i]!, synonym));
  if (isCjkToken(term)) {
    cjkTerm(ix, term, out, name, desc, within);
    return;
  }
  const m = ix.vocab.expand(term, k);
  for (const t of m.exact) {
    ix.latinName.into(t, out, name);
    ix.latinDesc.into(t, out, desc);
  }
  for (let i = 0; i < m.typo.length; i++) {
    const t = m.typo[i]!;
    ix.latinName.into(t, out, matchCode(CLASS_NAME, m.typos[i]!, synonym));
    ix.latinDesc.into(t, out, matchCode(CLASS_DESCRIPTION, m.typos[i]!, synonym));
  }
}

/** A CJK term: a character or a pair is one posting list; a longer term intersects its pairs, then the text decides. */
export function cjkTerm(ix: Store, term: string, out: DocSet, name: number, desc: number, within?: DocSet) {
  const grams = cjkGramsOf(term);
  if (grams.length === 1) {
    const id = ix.cjkIds.get(grams[0]!);
    if (id === undefined) return;
    ix.cjkName.into(id, out, name);
    ix.cjkDesc.into(id, out, desc);
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
    const code = cls === CLASS_NAME ? name : desc;
    const verify = (d: number) => {
      const p = ix.projects[d]!;
      if (cls === CLASS_NAME ? inText(d, p.name, p.nameEn) : inText(d, p.description, p.descriptionEn))
        out.best(d, code);
    };
    pairs.sort((a, b) => postings.size(a) - postings.size(b));
    if (within && within.n < postings.size(pairs[0]!)) {
      // fewer documents left by the earlier words than in the rarest pair: test those
      for (let i = 0; i < within.n; i++) {
        const d = within.list[i]!;
        if (pairs.every((id) => postings.has(id, d))) verify(d);
      }
      continue;
    }
    // count, per document, the pairs it holds: a document holding all of them is a candidate
    const count = ix.scratch.acquire(SLOT_COUNT, ix.idNum.length);
    postings.into(pairs[0]!, count, 1);
    for (let i = 1; i < pairs.length; i++) postings.bump(pairs[i]!, count, i);
    const all = pairs.length;
    for (let i = 0; i < count.n; i++) {
      const d = count.list[i]!;
      // the text is read only for documents the earlier words left in
      if (count.code[d] === all && (!within || within.has(d))) verify(d);
    }
  }
}

/** The documents matching every word of the query, with their match codes (null: the query has no word). */
export function match(ix: Store, q: string, typosOn: boolean): Matched | null {
  const { words, terms } = queryWords(ix, q);
  if (words.length === 0) return null;
  let acc: DocSet | undefined;
  for (const word of words) {
    // the word: its own terms, all of them (a conjunction), or any of its synonyms
    const wordSet = ix.scratch.acquire(SLOT_WORD, ix.idNum.length);
    if (word.synonyms.length === 0 && word.terms.length === 1)
      termSet(ix, word.terms[0]!, false, typosOn, wordSet, acc);
    else
      [word.terms, ...word.synonyms].forEach((alt, ai) => {
        const altSet = conjunction(ix, alt, ai > 0, typosOn, acc);
        for (let i = 0; i < altSet.n; i++) {
          const d = altSet.list[i]!;
          wordSet.best(d, altSet.code[d]!);
        }
      });
    if (!acc) {
      ix.scratch.swap(SLOT_WORD, SLOT_ACC);
      acc = ix.scratch.get(SLOT_ACC);
      continue;
    }
    const next = ix.scratch.acquire(SLOT_NEXT, ix.idNum.length);
    const [small, large] = acc.n <= wordSet.n ? [acc, wordSet] : [wordSet, acc];
    for (let i = 0; i < small.n; i++) {
      const d = small.list[i]!;
      if (large.has(d)) next.best(d, worseOf(acc.code[d]!, wordSet.code[d]!));
    }
    ix.scratch.swap(SLOT_NEXT, SLOT_ACC);
    acc = next;
  }
  return { set: acc!, words, terms };
}

/** The documents matching all the terms (a word's own, or one of its synonyms). */
export function conjunction(
  ix: Store,
  terms: string[],
  synonym: boolean,
  typosOn: boolean,
  within?: DocSet,
): DocSet {
  let acc = ix.scratch.acquire(SLOT_ALT, ix.idNum.length);
  termSet(ix, terms[0]!, synonym, typosOn, acc, within);
  for (let i = 1; i < terms.length; i++) {
    const one = ix.scratch.acquire(SLOT_TERM, ix.idNum.length);
    termSet(ix, terms[i]!, synonym, typosOn, one, acc);
    const next = ix.scratch.acquire(SLOT_ALT_NEXT, ix.idNum.length);
    for (let j = 0; j < acc.n; j++) {
      const d = acc.list[j]!;
      if (one.has(d)) next.best(d, worseOf(acc.code[d]!, one.code[d]!));
    }
    ix.scratch.swap(SLOT_ALT_NEXT, SLOT_ALT);
    acc = next;
  }
  return acc;
}
