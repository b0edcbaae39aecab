import type { Bits } from './bitmap.ts';
import type { SearchContext } from './context.ts';
import type { Matched } from './matching.ts';
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
} from './ranking.ts';
import { select } from './select.ts';
import type { Store } from './store.ts';
import { SEP } from './terms.ts';
import { compareCodePoints, isCjkToken, normalize, tokensOfNormalized } from './text.ts';
import type { MatchField, ProjectQuery } from './types.ts';
import { allowedTypos, prefixDistance } from './typo.ts';

/*
 * Pages in a sort's order: the field of each hit of a search, the keys and comparisons of the
 * sorts (updated, created, name, standing; ties by id; standing's by updated, then id), and a page in a pre-sorted order from the cursor.
 * A relevance page is the bucket sort's (bucket-sort.ts).
 */

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
  const typos = codeTypos(code);
  const all = m.words.flatMap((w) => [w.terms, ...w.synonyms]).flat();
  for (const field of fields) {
    if (field === 'pinyin') return 'pinyin';
    const text = ix.text.field(d, field as 'name' | 'nameEn' | 'slug' | 'description' | 'descriptionEn');
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

/**
 * `sort: 'standing'`'s cursor key: the standing and updatedAt (its tie-break) in one text, as
 * `<standing>:<updatedAt ms>` (docs/search.md#signals-and-standing).
 */
const standingKey = (ix: Store, d: number) => `${ix.standing[d]!}:${ix.updated[d]!}`;

/** A standing key read back: [standing, updatedAt] (a signed cursor: the server wrote it). */
function parseStandingKey(key: number | string): [number, number] {
  const text = String(key);
  const at = text.indexOf(':');
  return [Number(text.slice(0, at)), Number(text.slice(at + 1))];
}

export function keyOf(ix: Store, sort: ProjectQuery['sort'], d: number): number | string {
  if (sort === 'standing') return standingKey(ix, d);
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
  else if (sort === 'standing') {
    const [standing, updated] = parseStandingKey(key);
    c = ix.standing[d]! - standing || ix.updated[d]! - updated;
  } else c = (sort === 'updated' ? ix.updated[d]! : ix.created[d]!) - Number(key);
  if (c !== 0) return c;
  return compareCodePoints(ix.ids[d]!, id);
}

/** Compares two documents under a sort (ascending). */
export function compareDocs(ix: Store, sort: ProjectQuery['sort'], a: number, b: number): number {
  let c: number;
  if (sort === 'name') c = compareCodePoints(ix.nameKey[a]!, ix.nameKey[b]!);
  else if (sort === 'updated') c = ix.updated[a]! - ix.updated[b]!;
  else if (sort === 'standing') c = ix.standing[a]! - ix.standing[b]! || ix.updated[a]! - ix.updated[b]!;
  else c = ix.created[a]! - ix.created[b]!;
  if (c !== 0) return c;
  return ix.idNum[a]! - ix.idNum[b]! || compareCodePoints(ix.ids[a]!, ix.ids[b]!);
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
  const list =
    query.sort === 'name'
      ? ix.byName
      : query.sort === 'created'
        ? ix.byCreated
        : query.sort === 'standing'
          ? ix.byStanding
          : ix.byUpdated;
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
