import { PAIR_BATCH } from './limits.ts';
import { PairBuffer } from './pair-buffer.ts';
import type { Postings } from './postings.ts';
import type { StoreState as Store } from './store-state.ts';
import type { Terms } from './terms.ts';

/*
 * The store's postings writes (store.ts calls these): a document's terms into and out of the
 * postings of Latin tokens, CJK grams and key prefixes, a replace as the difference of two
 * versions' terms, and a batch put's pairs buffered and added by term.
 */

export function keyPrefixId(st: Store, code: number): number {
  let id = st.keyPrefixIds.get(code);
  if (id === undefined) {
    id = st.keyPrefixIds.size;
    st.keyPrefixIds.set(code, id);
  }
  return id;
}

export function cjkId(st: Store, gram: number): number {
  let id = st.cjkIds.get(gram);
  if (id === undefined) {
    id = st.cjkIds.size;
    st.cjkIds.set(gram, id);
  }
  return id;
}

export function pairBuffer(st: Store, postings: Postings): PairBuffer {
  let b = st.pairs.get(postings);
  if (!b) {
    b = new PairBuffer();
    st.pairs.set(postings, b);
  }
  return b;
}

export function bufferPairs(st: Store, d: number, t: Terms) {
  const latinName = pairBuffer(st, st.latinName);
  for (const s of t.latinName) latinName.push(st.vocab.intern(s), d);
  const latinDesc = pairBuffer(st, st.latinDesc);
  for (const s of t.latinDesc) latinDesc.push(st.vocab.intern(s), d);
  const cjkName = pairBuffer(st, st.cjkName);
  for (const g of t.cjkName) cjkName.push(cjkId(st, g), d);
  const cjkDesc = pairBuffer(st, st.cjkDesc);
  for (const g of t.cjkDesc) cjkDesc.push(cjkId(st, g), d);
  const keyPrefix = pairBuffer(st, st.keyPrefix);
  for (const k of t.keyPrefixes) keyPrefix.push(keyPrefixId(st, k), d);
  if (cjkDesc.n > PAIR_BATCH || latinDesc.n > PAIR_BATCH) flushPairs(st);
}

export function flushPairs(st: Store) {
  for (const [postings, b] of st.pairs) {
    postings.addPairs(b.terms, b.docs, b.n);
    b.n = 0;
  }
}

export function post(st: Store, d: number, t: Terms) {
  for (const s of t.latinName) st.latinName.add(st.vocab.intern(s), d);
  for (const s of t.latinDesc) st.latinDesc.add(st.vocab.intern(s), d);
  for (const s of t.cjkName) st.cjkName.add(cjkId(st, s), d);
  for (const s of t.cjkDesc) st.cjkDesc.add(cjkId(st, s), d);
  for (const k of t.keyPrefixes) st.keyPrefix.add(keyPrefixId(st, k), d);
}

export function unpost(st: Store, d: number, t: Terms) {
  for (const s of t.latinName) st.latinName.delete(st.vocab.id(s)!, d);
  for (const s of t.latinDesc) st.latinDesc.delete(st.vocab.id(s)!, d);
  for (const s of t.cjkName) st.cjkName.delete(st.cjkIds.get(s)!, d);
  for (const s of t.cjkDesc) st.cjkDesc.delete(st.cjkIds.get(s)!, d);
  for (const k of t.keyPrefixes) st.keyPrefix.delete(st.keyPrefixIds.get(k)!, d);
  for (const tag of st.docTags.get(d)) st.tagDocs.delete(tag, d);
}

/** Applies only what changed between two versions of a project's terms. */
export function diff(st: Store, d: number, a: Terms, b: Terms) {
  const each = <T>(xs: T[], ys: T[], postings: Postings, id: (s: T) => number, known: (s: T) => number) => {
    const x = new Set(xs);
    const y = new Set(ys);
    for (const s of x) if (!y.has(s)) postings.delete(known(s), d);
    for (const s of y) if (!x.has(s)) postings.add(id(s), d);
  };
  const vocab = (s: string) => st.vocab.intern(s);
  const vocabKnown = (s: string) => st.vocab.id(s)!;
  const cjk = (s: number) => cjkId(st, s);
  const cjkKnown = (s: number) => st.cjkIds.get(s)!;
  each(a.latinName, b.latinName, st.latinName, vocab, vocabKnown);
  each(a.latinDesc, b.latinDesc, st.latinDesc, vocab, vocabKnown);
  each(a.cjkName, b.cjkName, st.cjkName, cjk, cjkKnown);
  each(a.cjkDesc, b.cjkDesc, st.cjkDesc, cjk, cjkKnown);
  // keyPrefixes hold each prefix of a document once, over all its keys: a prefix another key still has stays
  const prefix = (k: number) => keyPrefixId(st, k);
  const prefixKnown = (k: number) => st.keyPrefixIds.get(k)!;
  each(a.keyPrefixes, b.keyPrefixes, st.keyPrefix, prefix, prefixKnown);
}
