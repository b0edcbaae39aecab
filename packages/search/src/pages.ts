import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import type { Coded, Matched } from './matching.ts';
import {
  CLASS_FIELDS,
  CLASS_TAG,
  codeClass,
  codeTypos,
  KEY_EXACT,
  KEY_EXACT_SYNONYM,
  KEY_FIELDS,
  KEY_NONE,
  KEY_PREFIX,
  KEY_PREFIX_SYNONYM,
  MAX_SCORE,
  score,
} from './ranking.ts';
import { select } from './select.ts';
import type { Position } from './sorted-list.ts';
import { KEYS, type Store } from './store.ts';
import { KEY_PREFIX_MAX, keyPrefixCode, SEP } from './terms.ts';
import { compareCodePoints, isCjkToken, normalize, tokensOfNormalized } from './text.ts';
import type { MatchField, ProjectQuery } from './types.ts';
import { allowedTypos, prefixDistance } from './typo.ts';

/*
 * Pages: the key tiers of a search's matches, the field of each hit, and the page itself in
 * relevance order (score by score, ties by id) or in a pre-sorted order (updated, created,
 * name), from the cursor on.
 */

/** score() of every match code (< 32) and key tier (< 8), looked up in the hot loop. */
export const SCORES = new Uint8Array(256).map((_, i) => (i >> 3 === 0 ? 0 : score(i >> 3, i & 7)));

/** The key tiers of a search: at[t] the matches whose best tier is t (1–4, disjoint), any their union. */
export interface Tiers {
  at: (Bits | undefined)[];
  any: Bits | undefined;
}

/**
 * The matches whose key equals or starts with the whole query (its words without spaces, or a
 * synonym of a one-word query), as sets: the keys of every document are kept in key order
 * (store.ts byKey), so the keys equal to the whole are a range found by binary search, its
 * documents' bits set and AND-ed with the matches (the work is the documents that rank there).
 * A whole of up to KEY_PREFIX_MAX code units has the documents of any key starting with it as
 * a posting list (store.ts keyPrefix), AND-ed with the matches a word at a time when dense; a
 * longer one is the range of keys that start with it. No text is read. The prefix list holds
 * the keys equal to the whole too: those documents are in the exact tier, which ranks higher
 * and takes them out of the prefix tier below.
 */
export function keyTiers(cx: SearchContext, m: Pick<Matched, 'words' | 'terms'>, matched: Coded): Tiers {
  const { ix } = cx;
  const at: (Bits | undefined)[] = [];
  const matches = matched.union;
  const wholes: [string, boolean][] = [[m.terms.join(''), false]];
  if (m.words.length === 1) for (const syn of m.words[0]!.synonyms) wholes.push([syn.join(''), true]);
  const byKey = ix.byKey;
  const put = (t: number, b: Bits) => {
    if (b.empty) return;
    if (at[t]) at[t].or(b);
    else at[t] = b;
  };
  for (const [whole, synonym] of wholes) {
    const exact = synonym ? KEY_EXACT_SYNONYM : KEY_EXACT;
    const prefix = synonym ? KEY_PREFIX_SYNONYM : KEY_PREFIX;
    const start = byKey.seek((e) => ix.compareKeyTo(e, whole) < 0);
    const exactEnd = byKey.seek((e) => ix.compareKeyTo(e, whole) <= 0);
    const ranges: [Position, Position, number][] = [[start, exactEnd, exact]];
    if (whole.length <= KEY_PREFIX_MAX) {
      const id = ix.keyPrefixIds.get(keyPrefixCode(whole, 0, whole.length));
      if (id !== undefined) {
        const b = cx.bits.take();
        ix.keyPrefix.andInto(id, matches, b);
        put(prefix, b);
      }
    } else {
      const end = byKey.seek((e) => ix.compareKeyTo(e, whole) < 0 || ix.keyStartsWith(e, whole));
      ranges.push([exactEnd, end, prefix]);
    }
    for (const [from, to, t] of ranges) {
      if (from.block === to.block && from.offset === to.offset) continue;
      const b = cx.bits.take();
      byKey.between(from, to, (e) => b.add((e / KEYS) | 0));
      b.and(matches);
      put(t, b);
    }
  }
  // each document in its best tier only
  let any: Bits | undefined;
  for (let t = KEY_EXACT; t > KEY_NONE; t--) {
    const b = at[t];
    if (!b) continue;
    if (any) b.andNot(any);
    else any = cx.bits.take();
    any.or(b);
  }
  return { at, any };
}

/**
 * The buckets of a search: the matches by score (ranking.ts), each made on demand from the
 * sets of the match codes and the key tiers, only for the scores a page reaches.
 */
export class Buckets {
  /** parts[s]: [code, tier] pairs whose documents score s (tier -1: any tier, for typos). */
  private readonly parts: [number, number][][] = [];
  private readonly made: (Bits | null | undefined)[] = [];

  constructor(
    private readonly cx: SearchContext,
    readonly final: Coded,
    readonly tiers: Tiers,
  ) {
    for (const c of final.codes) {
      if (codeTypos(c) > 0) this.part(SCORES[c << 3]!, c, -1);
      else
        for (let t = KEY_NONE; t <= KEY_EXACT; t++)
          if (t === KEY_NONE || tiers.at[t]) this.part(SCORES[(c << 3) | t]!, c, t);
    }
  }

  private part(s: number, code: number, tier: number) {
    const parts = this.parts[s];
    if (parts) parts.push([code, tier]);
    else this.parts[s] = [[code, tier]];
  }

  /** The documents of a score (null: none). */
  bucket(s: number): Bits | null {
    const done = this.made[s];
    if (done !== undefined) return done;
    const parts = this.parts[s];
    let out: Bits | null = null;
    if (parts) {
      out = this.cx.bits.take();
      for (const [code, t] of parts) {
        const layer = this.final.at[code]!;
        if (t < 0 || (t === KEY_NONE && !this.tiers.any)) out.or(layer);
        else if (t > KEY_NONE) layer.andInto(this.tiers.at[t]!, out);
        else {
          const rest = this.cx.bits.take();
          rest.or(layer);
          rest.andNot(this.tiers.any!);
          out.or(rest);
        }
      }
      if (out.empty) out = null;
    }
    this.made[s] = out;
    return out;
  }

  tierOf(d: number): number {
    for (let t = KEY_EXACT; t > KEY_NONE; t--) if (this.tiers.at[t]?.has(d)) return t;
    return KEY_NONE;
  }
}

/** Which field matched best, for a hit of a page. */
export function fieldOf(
  ix: Store,
  d: number,
  code: number,
  m: Pick<Matched, 'words' | 'terms'>,
  tier: number,
): MatchField {
  const keys = ix.keys[d]!;
  if (codeTypos(code) === 0 && tier !== KEY_NONE) {
    const wholes =
      tier === KEY_EXACT || tier === KEY_PREFIX
        ? [m.terms.join('')]
        : m.words[0]!.synonyms.map((t) => t.join(''));
    const exact = tier === KEY_EXACT || tier === KEY_EXACT_SYNONYM;
    let at = -1;
    for (const w of wholes) {
      const i = keys.indexOf(exact ? `${SEP}${w}${SEP}` : `${SEP}${w}`);
      if (i >= 0 && (at < 0 || i < at)) at = i;
    }
    let n = 0;
    for (let i = 0; i < at; i++) if (keys.charCodeAt(i) === 1) n++;
    return KEY_FIELDS[n] ?? 'name';
  }
  const cls = codeClass(code);
  const fields = CLASS_FIELDS[cls]!;
  if (cls === CLASS_TAG) return 'tags';
  const p = ix.projects[d]!;
  const typos = codeTypos(code);
  const all = m.words.flatMap((w) => [w.terms, ...w.synonyms]).flat();
  for (const field of fields) {
    if (field === 'pinyin') return 'pinyin';
    const text = p[field as 'name' | 'nameEn' | 'slug' | 'description' | 'descriptionEn'];
    if (!text) continue;
    // a term in the text is in one of its tokens (terms hold no separators); typos need the tokens
    const normalized = normalize(text);
    if (all.some((t) => normalized.includes(t))) return field;
    if (typos > 0) {
      const toks = tokensOfNormalized(normalized);
      if (all.some((t) => toks.some((tok) => termHits(t, tok, typos)))) return field;
    }
  }
  return fields[fields.length - 1]!;
}

export function keyOf(ix: Store, sort: ProjectQuery['sort'], d: number): number | string {
  if (sort === 'updated') return ix.updated[d]!;
  if (sort === 'created') return ix.created[d]!;
  return ix.nameKey[d]!;
}

/** Compares document d with a cursor (key, id) under a sort: negative when d comes first ascending. */
export function compareToCursor(
  ix: Store,
  sort: ProjectQuery['sort'],
  d: number,
  key: number | string,
  id: string,
) {
  let c: number;
  if (sort === 'name') c = compareCodePoints(ix.nameKey[d]!, String(key));
  else c = (sort === 'updated' ? ix.updated[d]! : ix.created[d]!) - Number(key);
  if (c !== 0) return c;
  return compareCodePoints(ix.ids[d]!, id);
}

/** Compares two documents under a sort (ascending). */
export function compareDocs(ix: Store, sort: ProjectQuery['sort'], a: number, b: number): number {
  let c: number;
  if (sort === 'name') c = compareCodePoints(ix.nameKey[a]!, ix.nameKey[b]!);
  else if (sort === 'updated') c = ix.updated[a]! - ix.updated[b]!;
  else c = ix.created[a]! - ix.created[b]!;
  if (c !== 0) return c;
  return ix.idNum[a]! - ix.idNum[b]! || compareCodePoints(ix.ids[a]!, ix.ids[b]!);
}

/**
 * A relevance page: the scores are few (ranking.ts), so the page is taken bucket by bucket
 * from the cursor's score on, each bucket made only when the page reaches it. Within one
 * score, hits go by id: when the bucket holds many documents the id order is walked from the
 * cursor, testing a bit each, and stops after what the page needs (about limit × directory ÷
 * bucket steps); when it holds few, they are selected directly.
 */
export function relevancePage(cx: SearchContext, query: ProjectQuery, buckets: Buckets): number[] {
  const { ix } = cx;
  const want = query.limit + 1;
  const desc = query.order === 'desc';
  const after = query.after;
  const asOf = query.asOf ?? Number.POSITIVE_INFINITY;
  const out: number[] = [];
  const start = after ? Math.round(Number(after.key)) : desc ? MAX_SCORE : 0;
  for (let s = start; s >= 0 && s <= MAX_SCORE && out.length < want; s += desc ? -1 : 1) {
    const bucket = buckets.bucket(s);
    if (!bucket) continue;
    const count = bucket.count();
    const need = want - out.length;
    const cursorId = after && s === start && Number(after.key) === s ? after.id : undefined;
    if ((need * ix.live) / count < count) {
      // walk the id order from the cursor
      const visit = (d: number) => {
        if (bucket.has(d) && ix.updated[d]! <= asOf) out.push(d);
        return out.length < want;
      };
      const ids = ix.ids;
      if (desc) {
        const from =
          cursorId === undefined
            ? ix.byId.end()
            : ix.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) < 0);
        ix.byId.backward(from, visit);
      } else {
        const from =
          cursorId === undefined
            ? ix.byId.start()
            : ix.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) <= 0);
        ix.byId.forward(from, visit);
      }
    } else {
      const dir = desc ? -1 : 1;
      const cmp = (a: number, b: number) =>
        dir * (ix.idNum[a]! - ix.idNum[b]! || compareCodePoints(ix.ids[a]!, ix.ids[b]!));
      const ok = (d: number) =>
        ix.updated[d]! <= asOf &&
        (cursorId === undefined || dir * compareCodePoints(ix.ids[d]!, cursorId) > 0);
      const list = cx.docList(count);
      const n = bucket.toList(list);
      out.push(...select(list, n, need, ok, cmp));
    }
  }
  return out;
}

/**
 * A page in updated/created/name order: a walk of the pre-sorted order from the cursor that
 * stops after limit + 1 matches, or, when the matches are few, a selection among them.
 */
export function sortedPage(cx: SearchContext, query: ProjectQuery, final: Bits, total: number): number[] {
  const { ix } = cx;
  const want = query.limit + 1;
  const dir = query.order === 'asc' ? 1 : -1;
  const after = query.after;
  const asOf = query.asOf ?? Number.POSITIVE_INFINITY;
  if (total * total > want * Math.max(1, ix.live))
    return walkOrder(ix, query, (d) => final.has(d) && ix.updated[d]! <= asOf);
  const cmp = (a: number, b: number) => dir * compareDocs(ix, query.sort, a, b);
  const ok = (d: number) =>
    ix.updated[d]! <= asOf && (!after || dir * compareToCursor(ix, query.sort, d, after.key, after.id) > 0);
  const list = cx.docList(total);
  const n = final.toList(list);
  return select(list, n, want, ok, cmp);
}

/** Walks the pre-sorted order of the query's sort from its cursor, keeping limit + 1 documents that pass. */
export function walkOrder(ix: Store, query: ProjectQuery, pass: (d: number) => boolean): number[] {
  const list = query.sort === 'name' ? ix.byName : query.sort === 'created' ? ix.byCreated : ix.byUpdated;
  const want = query.limit + 1;
  const out: number[] = [];
  const visit = (d: number) => {
    if (pass(d)) out.push(d);
    return out.length < want;
  };
  const after = query.after;
  if (query.order === 'asc') {
    const from = after
      ? list.seek((d) => compareToCursor(ix, query.sort, d, after.key, after.id) <= 0)
      : list.start();
    list.forward(from, visit);
  } else {
    const from = after
      ? list.seek((d) => compareToCursor(ix, query.sort, d, after.key, after.id) < 0)
      : list.end();
    list.backward(from, visit);
  }
  return out;
}

/** Whether a query term hits a token: as the engine matches (substring, 1–2 letter prefix, typos). */
function termHits(term: string, token: string, typos: number): boolean {
  if (isCjkToken(term)) return token.includes(term);
  if (term.length <= 2 ? token.startsWith(term) : token.includes(term)) return true;
  const k = Math.min(typos, allowedTypos(term));
  return k > 0 && prefixDistance(term, k, token) <= k;
}
