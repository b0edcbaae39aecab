import { DocTags } from './doc-tags.ts';
import { Postings } from './postings.ts';
import {
  CLASS_DESCRIPTION,
  CLASS_FIELDS,
  CLASS_NAME,
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
  matchCode,
  score,
  worseOf,
} from './ranking.ts';
import { SortedList } from './sorted-list.ts';
import {
  cjkSkeleton,
  compareCodePoints,
  isCjkToken,
  MAX_QUERY_TERMS,
  nameSortKey,
  normalize,
  pinyinSyllables,
  tokens,
  tokensOfNormalized,
} from './text.ts';
import type {
  FacetName,
  IndexedProject,
  IndexedTag,
  LinkType,
  MatchField,
  ProjectFacets,
  ProjectHit,
  ProjectHits,
  ProjectQuery,
  ProjectStatus,
  TagHit,
  TagQuery,
  ValueFacet,
} from './types.ts';
import { allowedTypos, prefixDistance } from './typo.ts';
import { Vocabulary } from './vocabulary.ts';

const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
const STATUSES: readonly ProjectStatus[] = ['ACTIVE', 'ARCHIVED'];
const TOP_TAGS = 50;
const SEP = '\u0001';

/** What a project puts into the postings (computed from its text; recomputed to take it out). */
interface Terms {
  // (with repeats: adding a document to a list twice is a no-op, cheaper than a Set per project)
  latinName: string[];
  latinDesc: string[];
  /** Keys of CJK characters and pairs (cjkGram). */
  cjkName: number[];
  cjkDesc: number[];
  /** SEP-separated keys: name, nameEn, slug (tokens without spaces), full pinyin, initials. */
  keys: string;
  /** The first 1, 2 and 3 characters of each key. */
  keyPrefixes: string[];
  nameKey: string;
  /** Whether normalising leaves the texts' CJK runs as they are (CJK substrings can then be checked on the raw text). */
  plain: boolean;
}

/** The key of a CJK character (its code point) or pair (both code points): numbers hash faster than strings. */
const cjkGram = (a: number, b?: number) => (b === undefined ? a : (a + 1) * 0x200000 + b);

/** The keys of a CJK term's characters (one) or pairs (two or more). */
function cjkGramsOf(t: string): number[] {
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

function termsOf(p: IndexedProject): Terms {
  const name = normalize(p.name);
  const nameEn = p.nameEn ? normalize(p.nameEn) : '';
  const description = normalize(p.description);
  const descriptionEn = p.descriptionEn ? normalize(p.descriptionEn) : '';
  const syllables = pinyinSyllables(p.name);
  const full = syllables.join('');
  const initials = syllables.map((s) => s[0]).join('');
  const nameToks = tokensOfNormalized(name);
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
  const keyPrefixes: string[] = [];
  for (const k of keyList) for (let n = 1; n <= 3 && n <= k.length; n++) keyPrefixes.push(k.slice(0, n));
  const same = (raw: string | null, normalized: string) =>
    !raw || cjkSkeleton(raw) === cjkSkeleton(normalized);
  return {
    latinName,
    latinDesc,
    cjkName,
    cjkDesc,
    keys: `${SEP}${keyList.join(SEP)}${SEP}`,
    keyPrefixes,
    nameKey: nameSortKey(p.name),
    plain:
      same(p.name, name) &&
      same(p.nameEn, nameEn) &&
      same(p.description, description) &&
      same(p.descriptionEn, descriptionEn),
  };
}

/**
 * A monotone number for an id: its first 7 characters in base 128 (a character from U+007E on
 * counts as the largest and ends the number). Ids compare by this number first and by their
 * text only on a tie, which keeps id order (code points) at the cost of a number compare.
 */
function idNumber(id: string): number {
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

/** Pairs buffered before a flush (bounded: a 1,000,000-project build does not hold all its pairs at once). */
const PAIR_BATCH = 4_000_000;

/** (term, document) pairs, appended in document order. */
class PairBuffer {
  terms = new Uint32Array(1024);
  docs = new Uint32Array(1024);
  n = 0;

  push(term: number, doc: number) {
    if (this.n === this.terms.length) {
      const t = new Uint32Array(this.n * 2);
      t.set(this.terms);
      this.terms = t;
      const d = new Uint32Array(this.n * 2);
      d.set(this.docs);
      this.docs = d;
    }
    this.terms[this.n] = term;
    this.docs[this.n++] = doc;
  }
}

/** A set of documents with a byte each (a match code or a score), reusable across queries. */
class DocSet {
  stamp: Uint32Array;
  code: Uint8Array;
  list: Uint32Array;
  n = 0;
  gen = 1;

  constructor(capacity: number) {
    this.stamp = new Uint32Array(capacity);
    this.code = new Uint8Array(capacity);
    this.list = new Uint32Array(capacity);
  }

  clear(capacity: number): void {
    if (this.stamp.length < capacity) {
      this.stamp = new Uint32Array(capacity);
      this.code = new Uint8Array(capacity);
      this.list = new Uint32Array(capacity);
      this.gen = 0;
    }
    this.gen++;
    if (this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.gen = 1;
    }
    this.n = 0;
  }

  has(d: number): boolean {
    return this.stamp[d] === this.gen;
  }

  /** Adds d with a code, or keeps the better (larger) code when d is in already. */
  best(d: number, code: number): void {
    if (this.stamp[d] !== this.gen) {
      this.stamp[d] = this.gen;
      this.code[d] = code;
      // the list holds each document once: it is as long as the directory
      this.list[this.n++] = d;
    } else if (code > this.code[d]!) this.code[d] = code;
  }

  bump(d: number, from: number): void {
    if (this.stamp[d] === this.gen && this.code[d] === from) this.code[d] = from + 1;
  }
}

/** A query word: the terms that must all match, and its synonyms' terms (each a conjunction). */
interface Word {
  terms: string[];
  synonyms: string[][];
}

interface CompiledFilters {
  status: number;
  tagNums: number[] | undefined;
  /** True when a tag slug of an `all` filter is unknown: nothing matches. */
  tagsImpossible: boolean;
  tagMode: 'all' | 'any';
  linkMask: number;
  source: number | undefined;
  updatedAfter: number | undefined;
}

// scratch sets of a query (each as large as the directory, allocated once and reused)
const SLOT_ACC = 0;
const SLOT_NEXT = 1;
const SLOT_WORD = 2;
const SLOT_ALT = 3;
const SLOT_TERM = 4;
const SLOT_ALT_NEXT = 5;
const SLOT_FINAL = 6;
const SLOT_SEEN = 7;
const SLOT_COUNT = 8;

/** score() of every match code (< 32) and key tier (< 8), looked up in the hot loop. */
const SCORES = new Uint8Array(256).map((_, i) => (i >> 3 === 0 ? 0 : score(i >> 3, i & 7)));

const NO_SOURCE = -1;
const UNKNOWN_SOURCE = -2;

export class SearchIndex {
  // per document (dense numbers; a removed project's number is reused)
  private projects: (IndexedProject | undefined)[] = [];
  private ids: string[] = [];
  private idNum = new Float64Array(1024);
  private status = new Uint8Array(1024);
  private linkMask = new Uint8Array(1024);
  private sourceOf = new Int32Array(1024);
  private updated = new Float64Array(1024);
  private created = new Float64Array(1024);
  private plain = new Uint8Array(1024);
  private nameKey: string[] = [];
  private keys: string[] = [];
  private readonly docTags = new DocTags();
  private readonly docOf = new Map<string, number>();
  private free: number[] = [];
  private end = 0;
  private live = 0;

  // postings
  private readonly vocab = new Vocabulary();
  private readonly latinName = new Postings();
  private readonly latinDesc = new Postings();
  private readonly cjkIds = new Map<number, number>();
  private readonly cjkName = new Postings();
  private readonly cjkDesc = new Postings();
  private readonly keyPrefixIds = new Map<string, number>();
  private readonly keyPrefix = new Postings();
  private readonly tagDocs = new Postings();

  // maintained counts (facets of the whole directory, tags' projectCount)
  private statusCount = [0, 0, 0];
  private linkCount = [0, 0, 0, 0];
  private tagCount: number[] = [];

  // sorted orders
  private readonly byUpdated: SortedList;
  private readonly byCreated: SortedList;
  private readonly byName: SortedList;
  /** Id order: ties of a relevance page are walked in it. */
  private readonly byId: SortedList;

  // sources
  private readonly sourceIds = new Map<string, number>();

  // tags (numbers are not reused: tags are few)
  private tags: (IndexedTag | undefined)[] = [];
  private tagText: string[] = [];
  private tagTokens: string[][] = [];
  private tagSearch: string[] = [];
  private tagNameKey: string[] = [];
  private readonly tagOf = new Map<string, number>();
  private readonly tagBySlug = new Map<string, number>();
  private tagVersion = 0;
  /** Bumped by every change of tags (slugs included). */
  private tagChanges = 0;
  private slugRank = new Int32Array(0);
  private slugRankOf = -1;

  // synonyms: a term (its tokens joined by spaces) → its set
  private synonymOf = new Map<string, number>();
  private synonymSets: string[][][] = [];
  private synonymTokenCounts: number[] = [];

  // caches and scratch
  /** The tags a term matches (with typos), while no tag changes. */
  private tagMatchCache = new Map<string, { tags: number[]; typos: number[] }>();
  private tagMatchVersion = -1;
  /** Key tier of each document of the current query (reset after it), and the documents set. */
  private tierOf = new Uint8Array(1024);
  private tiered: number[] = [];
  /** Tag counts of a facet pass (reset after it). */
  private facetTagCounts = new Int32Array(64);
  private readonly scratch: DocSet[] = [];

  constructor() {
    const cmpId = (a: number, b: number) =>
      this.idNum[a]! - this.idNum[b]! || compareCodePoints(this.ids[a]!, this.ids[b]!);
    this.byId = new SortedList(cmpId);
    this.byUpdated = new SortedList((a, b) => this.updated[a]! - this.updated[b]! || cmpId(a, b));
    this.byCreated = new SortedList((a, b) => this.created[a]! - this.created[b]! || cmpId(a, b));
    this.byName = new SortedList(
      (a, b) => compareCodePoints(this.nameKey[a]!, this.nameKey[b]!) || cmpId(a, b),
    );
  }

  // ————————————————————————————————————————— tags

  putTags(tags: IndexedTag[]): void {
    this.tagChanges++;
    for (const t of tags) {
      let num = this.tagOf.get(t.id);
      const old = num === undefined ? undefined : this.tags[num];
      if (num === undefined) {
        num = this.tags.length;
        this.tagOf.set(t.id, num);
        this.tagCount[num] = 0;
      }
      if (old && old.slug !== t.slug && this.tagBySlug.get(old.slug) === num) this.tagBySlug.delete(old.slug);
      this.tags[num] = { id: t.id, name: t.name, nameEn: t.nameEn, slug: t.slug };
      this.tagBySlug.set(t.slug, num);
      const text = [...tokens(t.name), ...tokens(t.nameEn)];
      this.tagTokens[num] = text;
      this.tagText[num] = ` ${text.join(' ')} `;
      const syllables = pinyinSyllables(t.name);
      const full = syllables.join('');
      const search = [
        ...text,
        ...tokens(t.slug),
        ...syllables,
        ...(full ? [full, syllables.map((s) => s[0]).join('')] : []),
      ];
      this.tagSearch[num] = ` ${search.join(' ')} `;
      this.tagNameKey[num] = nameSortKey(t.name);
      if (!old || old.name !== t.name || old.nameEn !== t.nameEn) this.tagVersion++;
    }
  }

  removeTags(tagIds: string[]): void {
    this.tagChanges++;
    for (const id of tagIds) {
      const num = this.tagOf.get(id);
      if (num === undefined) continue;
      const docs: number[] = [];
      this.tagDocs.forEach(num, (d) => docs.push(d));
      for (const d of docs) {
        this.docTags.set(
          d,
          this.docTags.get(d).filter((x) => x !== num),
        );
        this.tagDocs.delete(num, d);
      }
      const t = this.tags[num]!;
      if (this.tagBySlug.get(t.slug) === num) this.tagBySlug.delete(t.slug);
      this.tagOf.delete(id);
      this.tags[num] = undefined;
      this.tagCount[num] = 0;
      this.tagVersion++;
    }
  }

  /** A project as it was put, or undefined. */
  project(id: string): IndexedProject | undefined {
    const d = this.docOf.get(id);
    return d === undefined ? undefined : this.projects[d];
  }

  tag(id: string): IndexedTag | undefined {
    const num = this.tagOf.get(id);
    return num === undefined ? undefined : this.tags[num];
  }

  setSynonyms(sets: string[][]): void {
    this.synonymOf = new Map();
    this.synonymSets = [];
    this.synonymTokenCounts = [];
    for (const set of sets) {
      const terms = set.map((s) => tokens(s)).filter((t) => t.length > 0);
      const unique = [...new Map(terms.map((t) => [t.join(' '), t])).values()];
      if (unique.length < 2) continue;
      const at = this.synonymSets.length;
      this.synonymSets.push(unique);
      for (const t of unique) {
        this.synonymOf.set(t.join(' '), at);
        if (!this.synonymTokenCounts.includes(t.length)) this.synonymTokenCounts.push(t.length);
      }
    }
    this.synonymTokenCounts.sort((a, b) => b - a);
  }

  // ————————————————————————————————————————— projects

  put(projects: IndexedProject[]): void {
    // a large batch (a build) sorts the orders once instead of inserting one by one
    const bulk = projects.length > 1000 && projects.length > this.live / 8;
    for (const p of projects) {
      const tagNums = p.tagIds.map((id) => {
        const num = this.tagOf.get(id);
        if (num === undefined) throw new Error(`SearchIndex.put: tag ${id} was not put first`);
        return num;
      });
      const d = this.docOf.get(p.id);
      if (d === undefined) this.insert(p, tagNums, bulk);
      else {
        // a replace diffs against the postings: the buffered pairs go in first
        this.flushPairs();
        this.replace(d, p, tagNums, bulk);
      }
    }
    if (bulk) {
      this.flushPairs();
      this.pairs.clear();
      const all: number[] = [];
      for (let d = 0; d < this.end; d++) if (this.projects[d]) all.push(d);
      this.byUpdated.reset(all.slice());
      this.byCreated.reset(all.slice());
      this.byName.reset(all.slice());
      this.byId.reset(all);
    }
  }

  remove(projectIds: string[]): void {
    for (const id of projectIds) {
      const d = this.docOf.get(id);
      if (d === undefined) continue;
      const p = this.projects[d]!;
      this.unorder(d);
      this.unpost(d, termsOf(p));
      this.uncount(d);
      this.docOf.delete(id);
      this.projects[d] = undefined;
      this.status[d] = 0;
      this.docTags.set(d, []);
      this.nameKey[d] = '';
      this.keys[d] = '';
      this.free.push(d);
      this.live--;
    }
  }

  private grow(need: number) {
    if (need <= this.idNum.length) return;
    let n = this.idNum.length;
    while (n < need) n *= 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.idNum = f64(this.idNum);
    this.updated = f64(this.updated);
    this.created = f64(this.created);
    this.status = u8(this.status);
    this.linkMask = u8(this.linkMask);
    this.plain = u8(this.plain);
    const s = new Int32Array(n);
    s.set(this.sourceOf);
    this.sourceOf = s;
  }

  private insert(p: IndexedProject, tagNums: number[], bulk: boolean) {
    const d = this.free.pop() ?? this.end++;
    this.grow(this.end);
    this.docOf.set(p.id, d);
    this.ids[d] = p.id;
    this.idNum[d] = idNumber(p.id);
    this.live++;
    const terms = termsOf(p);
    this.setDoc(d, p, tagNums, terms);
    if (bulk) this.bufferPairs(d, terms);
    else this.post(d, terms);
    this.count(d);
    if (!bulk) this.order(d);
  }

  private replace(d: number, p: IndexedProject, tagNums: number[], bulk: boolean) {
    const old = this.projects[d]!;
    const before = termsOf(old);
    if (!bulk) this.unorder(d);
    this.uncount(d);
    const after = termsOf(p);
    this.diff(d, before, after);
    this.setDoc(d, p, tagNums, after);
    this.count(d);
    if (!bulk) this.order(d);
  }

  private setDoc(d: number, p: IndexedProject, tagNums: number[], terms: Terms) {
    this.projects[d] = p;
    this.status[d] = p.status === 'ARCHIVED' ? 2 : 1;
    let mask = 0;
    for (const t of p.linkTypes) mask |= 1 << LINK_TYPES.indexOf(t);
    this.linkMask[d] = mask;
    if (p.source === null) this.sourceOf[d] = NO_SOURCE;
    else {
      let s = this.sourceIds.get(p.source);
      if (s === undefined) {
        s = this.sourceIds.size;
        this.sourceIds.set(p.source, s);
      }
      this.sourceOf[d] = s;
    }
    this.updated[d] = p.updatedAt;
    this.created[d] = p.createdAt;
    this.plain[d] = terms.plain ? 1 : 0;
    this.nameKey[d] = terms.nameKey;
    this.keys[d] = terms.keys;
    const old = this.docTags.get(d);
    const next = [...new Set(tagNums)];
    for (const t of old) if (!next.includes(t)) this.tagDocs.delete(t, d);
    for (const t of next) if (!old.includes(t)) this.tagDocs.add(t, d);
    this.docTags.set(d, next);
  }

  private order(d: number) {
    this.byId.insert(d);
    this.byUpdated.insert(d);
    this.byCreated.insert(d);
    this.byName.insert(d);
  }

  private unorder(d: number) {
    this.byId.remove(d);
    this.byUpdated.remove(d);
    this.byCreated.remove(d);
    this.byName.remove(d);
  }

  private count(d: number) {
    this.statusCount[this.status[d]!]!++;
    const mask = this.linkMask[d]!;
    for (let i = 0; i < 4; i++) if (mask & (1 << i)) this.linkCount[i]!++;
    for (const t of this.docTags.get(d)) this.tagCount[t]!++;
  }

  private uncount(d: number) {
    this.statusCount[this.status[d]!]!--;
    const mask = this.linkMask[d]!;
    for (let i = 0; i < 4; i++) if (mask & (1 << i)) this.linkCount[i]!--;
    for (const t of this.docTags.get(d)) this.tagCount[t]!--;
  }

  private cjkId(gram: number): number {
    let id = this.cjkIds.get(gram);
    if (id === undefined) {
      id = this.cjkIds.size;
      this.cjkIds.set(gram, id);
    }
    return id;
  }

  private keyPrefixId(prefix: string): number {
    let id = this.keyPrefixIds.get(prefix);
    if (id === undefined) {
      id = this.keyPrefixIds.size;
      this.keyPrefixIds.set(prefix, id);
    }
    return id;
  }

  /** Pairs of a bulk put, per postings: added by term once the batch is read (Postings.addPairs). */
  private readonly pairs = new Map<Postings, PairBuffer>();

  private pairBuffer(postings: Postings): PairBuffer {
    let b = this.pairs.get(postings);
    if (!b) {
      b = new PairBuffer();
      this.pairs.set(postings, b);
    }
    return b;
  }

  private bufferPairs(d: number, t: Terms) {
    const latinName = this.pairBuffer(this.latinName);
    for (const s of t.latinName) latinName.push(this.vocab.intern(s), d);
    const latinDesc = this.pairBuffer(this.latinDesc);
    for (const s of t.latinDesc) latinDesc.push(this.vocab.intern(s), d);
    const cjkName = this.pairBuffer(this.cjkName);
    for (const g of t.cjkName) cjkName.push(this.cjkId(g), d);
    const cjkDesc = this.pairBuffer(this.cjkDesc);
    for (const g of t.cjkDesc) cjkDesc.push(this.cjkId(g), d);
    const keys = this.pairBuffer(this.keyPrefix);
    for (const s of t.keyPrefixes) keys.push(this.keyPrefixId(s), d);
    if (cjkDesc.n > PAIR_BATCH || latinDesc.n > PAIR_BATCH) this.flushPairs();
  }

  private flushPairs() {
    for (const [postings, b] of this.pairs) {
      postings.addPairs(b.terms, b.docs, b.n);
      b.n = 0;
    }
  }

  private post(d: number, t: Terms) {
    for (const s of t.latinName) this.latinName.add(this.vocab.intern(s), d);
    for (const s of t.latinDesc) this.latinDesc.add(this.vocab.intern(s), d);
    for (const s of t.cjkName) this.cjkName.add(this.cjkId(s), d);
    for (const s of t.cjkDesc) this.cjkDesc.add(this.cjkId(s), d);
    for (const s of t.keyPrefixes) this.keyPrefix.add(this.keyPrefixId(s), d);
  }

  private unpost(d: number, t: Terms) {
    for (const s of t.latinName) this.latinName.delete(this.vocab.id(s)!, d);
    for (const s of t.latinDesc) this.latinDesc.delete(this.vocab.id(s)!, d);
    for (const s of t.cjkName) this.cjkName.delete(this.cjkIds.get(s)!, d);
    for (const s of t.cjkDesc) this.cjkDesc.delete(this.cjkIds.get(s)!, d);
    for (const s of t.keyPrefixes) this.keyPrefix.delete(this.keyPrefixIds.get(s)!, d);
    for (const tag of this.docTags.get(d)) this.tagDocs.delete(tag, d);
  }

  /** Applies only what changed between two versions of a project's terms. */
  private diff(d: number, a: Terms, b: Terms) {
    const each = <T>(xs: T[], ys: T[], postings: Postings, id: (s: T) => number, known: (s: T) => number) => {
      const x = new Set(xs);
      const y = new Set(ys);
      for (const s of x) if (!y.has(s)) postings.delete(known(s), d);
      for (const s of y) if (!x.has(s)) postings.add(id(s), d);
    };
    const vocab = (s: string) => this.vocab.intern(s);
    const vocabKnown = (s: string) => this.vocab.id(s)!;
    const cjk = (s: number) => this.cjkId(s);
    const cjkKnown = (s: number) => this.cjkIds.get(s)!;
    const key = (s: string) => this.keyPrefixId(s);
    const keyKnown = (s: string) => this.keyPrefixIds.get(s)!;
    each(a.latinName, b.latinName, this.latinName, vocab, vocabKnown);
    each(a.latinDesc, b.latinDesc, this.latinDesc, vocab, vocabKnown);
    each(a.cjkName, b.cjkName, this.cjkName, cjk, cjkKnown);
    each(a.cjkDesc, b.cjkDesc, this.cjkDesc, cjk, cjkKnown);
    each(a.keyPrefixes, b.keyPrefixes, this.keyPrefix, key, keyKnown);
  }

  stats(): { projects: number; tags: number; bytes: number } {
    const n = this.idNum.length;
    let bytes = n * (8 * 3 + 4 + 3) + this.end * 8 * 6; // typed arrays, and the per-document slots of the plain arrays
    for (let d = 0; d < this.end; d++) {
      if (!this.projects[d]) continue;
      bytes += 2 * (this.nameKey[d]!.length + this.keys[d]!.length) + 64 + 16;
      bytes += 48; // docOf entry
    }
    bytes += this.vocab.bytes();
    bytes += this.latinName.bytes() + this.latinDesc.bytes() + this.cjkName.bytes() + this.cjkDesc.bytes();
    bytes += this.keyPrefix.bytes() + this.tagDocs.bytes() + this.docTags.bytes();
    bytes += (this.cjkIds.size + this.keyPrefixIds.size) * 64;
    bytes += this.byUpdated.bytes() + this.byCreated.bytes() + this.byName.bytes() + this.byId.bytes();
    let tags = 0;
    for (const t of this.tags) if (t) tags++;
    bytes += tags * 400;
    return { projects: this.live, tags, bytes };
  }

  // ————————————————————————————————————————— queries

  private acquire(depth: number): DocSet {
    let s = this.scratch[depth];
    if (!s) {
      s = new DocSet(Math.max(1024, this.idNum.length));
      this.scratch[depth] = s;
    }
    s.clear(this.idNum.length);
    return s;
  }

  /** The tags whose text a term matches: exactly, or (k > 0) within k typos. */
  private tagMatches(term: string, k: number): { tags: number[]; typos: number[] } {
    if (this.tagMatchVersion !== this.tagVersion) {
      this.tagMatchCache.clear();
      this.tagMatchVersion = this.tagVersion;
    }
    const key = `${k}:${term}`;
    const hit = this.tagMatchCache.get(key);
    if (hit) return hit;
    const pattern = isCjkToken(term) || term.length > 2 ? term : ` ${term}`;
    const tags: number[] = [];
    const typos: number[] = [];
    for (let num = 0; num < this.tags.length; num++) {
      if (!this.tags[num]) continue;
      if (this.tagText[num]!.includes(pattern)) {
        tags.push(num);
        typos.push(0);
      } else if (k > 0) {
        let best = k + 1;
        for (const tok of this.tagTokens[num]!) best = Math.min(best, prefixDistance(term, k, tok));
        if (best <= k) {
          tags.push(num);
          typos.push(best);
        }
      }
    }
    const m = { tags, typos };
    if (this.tagMatchCache.size >= 512) this.tagMatchCache.clear();
    this.tagMatchCache.set(key, m);
    return m;
  }

  /** The query cut into words (synonym terms spanning several tokens are one word). */
  private words(q: string): { words: Word[]; terms: string[] } {
    const terms = [...new Set(tokens(q))].slice(0, MAX_QUERY_TERMS);
    const words: Word[] = [];
    for (let i = 0; i < terms.length; ) {
      let taken = false;
      for (const k of this.synonymTokenCounts) {
        if (i + k > terms.length) continue;
        const set = this.synonymOf.get(terms.slice(i, i + k).join(' '));
        if (set === undefined) continue;
        const own = terms.slice(i, i + k);
        const key = own.join(' ');
        words.push({ terms: own, synonyms: this.synonymSets[set]!.filter((t) => t.join(' ') !== key) });
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
  private termSet(term: string, synonym: boolean, typosOn: boolean, out: DocSet, within?: DocSet) {
    const name = matchCode(CLASS_NAME, 0, synonym);
    const desc = matchCode(CLASS_DESCRIPTION, 0, synonym);
    const k = isCjkToken(term) || !typosOn || synonym ? 0 : allowedTypos(term);
    const tagged = this.tagMatches(term, k);
    for (let i = 0; i < tagged.tags.length; i++)
      this.tagDocs.into(tagged.tags[i]!, out, matchCode(CLASS_TAG, tagged.typos[i]!, synonym));
    if (isCjkToken(term)) {
      this.cjkTerm(term, out, name, desc, within);
      return;
    }
    const m = this.vocab.expand(term, k);
    for (const t of m.exact) {
      this.latinName.into(t, out, name);
      this.latinDesc.into(t, out, desc);
    }
    for (let i = 0; i < m.typo.length; i++) {
      const t = m.typo[i]!;
      this.latinName.into(t, out, matchCode(CLASS_NAME, m.typos[i]!, synonym));
      this.latinDesc.into(t, out, matchCode(CLASS_DESCRIPTION, m.typos[i]!, synonym));
    }
  }

  /** A CJK term: a character or a pair is one posting list; a longer term intersects its pairs, then the text decides. */
  private cjkTerm(term: string, out: DocSet, name: number, desc: number, within?: DocSet) {
    const grams = cjkGramsOf(term);
    if (grams.length === 1) {
      const id = this.cjkIds.get(grams[0]!);
      if (id === undefined) return;
      this.cjkName.into(id, out, name);
      this.cjkDesc.into(id, out, desc);
      return;
    }
    const pairs: number[] = [];
    for (const g of grams) {
      const id = this.cjkIds.get(g);
      if (id === undefined) return;
      if (!pairs.includes(id)) pairs.push(id);
    }
    const inText = (d: number, a: string | null, b: string | null) => {
      if (this.plain[d] === 1) return (a?.includes(term) ?? false) || (b?.includes(term) ?? false);
      return (a ? normalize(a).includes(term) : false) || (b ? normalize(b).includes(term) : false);
    };
    for (const cls of [CLASS_NAME, CLASS_DESCRIPTION]) {
      const postings = cls === CLASS_NAME ? this.cjkName : this.cjkDesc;
      const code = cls === CLASS_NAME ? name : desc;
      const verify = (d: number) => {
        const p = this.projects[d]!;
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
      const count = this.acquire(SLOT_COUNT);
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
  private match(q: string, typosOn: boolean): { set: DocSet; words: Word[]; terms: string[] } | null {
    const { words, terms } = this.words(q);
    if (words.length === 0) return null;
    let acc: DocSet | undefined;
    for (const word of words) {
      // the word: its own terms, all of them (a conjunction), or any of its synonyms
      const wordSet = this.acquire(SLOT_WORD);
      if (word.synonyms.length === 0 && word.terms.length === 1)
        this.termSet(word.terms[0]!, false, typosOn, wordSet, acc);
      else
        [word.terms, ...word.synonyms].forEach((alt, ai) => {
          const altSet = this.conjunction(alt, ai > 0, typosOn, acc);
          for (let i = 0; i < altSet.n; i++) {
            const d = altSet.list[i]!;
            wordSet.best(d, altSet.code[d]!);
          }
        });
      if (!acc) {
        this.swap(SLOT_WORD, SLOT_ACC);
        acc = this.scratch[SLOT_ACC]!;
        continue;
      }
      const next = this.acquire(SLOT_NEXT);
      const [small, large] = acc.n <= wordSet.n ? [acc, wordSet] : [wordSet, acc];
      for (let i = 0; i < small.n; i++) {
        const d = small.list[i]!;
        if (large.has(d)) next.best(d, worseOf(acc.code[d]!, wordSet.code[d]!));
      }
      this.swap(SLOT_NEXT, SLOT_ACC);
      acc = next;
    }
    return { set: acc!, words, terms };
  }

  private swap(a: number, b: number) {
    const x = this.scratch[a]!;
    this.scratch[a] = this.scratch[b]!;
    this.scratch[b] = x;
  }

  /** The documents matching all the terms (a word's own, or one of its synonyms). */
  private conjunction(terms: string[], synonym: boolean, typosOn: boolean, within?: DocSet): DocSet {
    let acc = this.acquire(SLOT_ALT);
    this.termSet(terms[0]!, synonym, typosOn, acc, within);
    for (let i = 1; i < terms.length; i++) {
      const one = this.acquire(SLOT_TERM);
      this.termSet(terms[i]!, synonym, typosOn, one, acc);
      const next = this.acquire(SLOT_ALT_NEXT);
      for (let j = 0; j < acc.n; j++) {
        const d = acc.list[j]!;
        if (one.has(d)) next.best(d, worseOf(acc.code[d]!, one.code[d]!));
      }
      this.swap(SLOT_ALT_NEXT, SLOT_ALT);
      acc = next;
    }
    return acc;
  }

  private compileFilters(q: ProjectQuery): CompiledFilters {
    let tagNums: number[] | undefined;
    let tagsImpossible = false;
    if (q.tagSlugs.length > 0) {
      tagNums = [];
      for (const slug of new Set(q.tagSlugs)) {
        const num = this.tagBySlug.get(slug);
        if (num === undefined) tagsImpossible ||= q.tagMode === 'all';
        else tagNums.push(num);
      }
      if (tagNums.length === 0) tagsImpossible = true;
    }
    let linkMask = 0;
    for (const t of q.linkTypes) linkMask |= 1 << LINK_TYPES.indexOf(t);
    return {
      status: q.status === undefined ? 0 : q.status === 'ARCHIVED' ? 2 : 1,
      tagNums,
      tagsImpossible,
      tagMode: q.tagMode,
      linkMask,
      source: q.source === undefined ? undefined : (this.sourceIds.get(q.source) ?? UNKNOWN_SOURCE),
      updatedAfter: q.updatedAfter,
    };
  }

  private statusOk(f: CompiledFilters, d: number): boolean {
    return f.status === 0 || this.status[d] === f.status;
  }

  private tagsOk(f: CompiledFilters, d: number): boolean {
    if (!f.tagNums) return true;
    if (f.tagsImpossible) return false;
    const { slab, at, count } = this.docTags;
    const from = at[d]!;
    const to = from + count[d]!;
    const has = (t: number) => {
      for (let i = from; i < to; i++) if (slab[i] === t) return true;
      return false;
    };
    if (f.tagMode === 'any') {
      for (const t of f.tagNums) if (has(t)) return true;
      return false;
    }
    for (const t of f.tagNums) if (!has(t)) return false;
    return true;
  }

  private linksOk(f: CompiledFilters, d: number): boolean {
    return (this.linkMask[d]! & f.linkMask) === f.linkMask;
  }

  private othersOk(f: CompiledFilters, d: number): boolean {
    if (f.source !== undefined && this.sourceOf[d] !== f.source) return false;
    if (f.updatedAfter !== undefined && !(this.updated[d]! > f.updatedAfter)) return false;
    return true;
  }

  private allOk(f: CompiledFilters, d: number): boolean {
    return this.statusOk(f, d) && this.tagsOk(f, d) && this.linksOk(f, d) && this.othersOk(f, d);
  }

  private noFilters(f: CompiledFilters): boolean {
    return (
      f.status === 0 &&
      f.tagNums === undefined &&
      f.linkMask === 0 &&
      f.source === undefined &&
      f.updatedAfter === undefined
    );
  }

  findProjects(query: ProjectQuery): ProjectHits {
    const f = this.compileFilters(query);
    const facetNames = [...new Set(query.facets)];
    if (query.q !== undefined) {
      const m = this.match(query.q, query.typos !== false);
      if (!m) {
        const empty: ProjectFacets = {};
        for (const name of facetNames) empty[name] = [];
        return { hits: [], total: 0, ...(facetNames.length > 0 && { facets: empty }) };
      }
      return this.searchPage(query, f, m, facetNames);
    }
    return this.listPage(query, f, facetNames);
  }

  /** With q: the matches are known; score them, filter, count, and pick the page. */
  private searchPage(
    query: ProjectQuery,
    f: CompiledFilters,
    m: { set: DocSet; words: Word[]; terms: string[] },
    facetNames: FacetName[],
  ): ProjectHits {
    const matched = m.set;
    this.keyTiers(m, matched);
    const tierOf = this.tierOf;
    // final: the matches passing every filter, with their scores
    const codes = matched.code;
    let final = matched;
    if (!this.noFilters(f)) {
      final = this.acquire(SLOT_FINAL);
      const list = matched.list;
      for (let i = 0; i < matched.n; i++) {
        const d = list[i]!;
        if (this.allOk(f, d)) final.best(d, codes[d]!);
      }
    }
    const facets = facetNames.length > 0 ? this.facetPass(f, facetNames, matched) : undefined;
    const page =
      query.sort === 'relevance' ? this.relevancePage(query, final) : this.sortedPage(query, final);
    const hits: ProjectHit[] = page.map((d) => {
      const s = SCORES[(codes[d]! << 3) | tierOf[d]!]!;
      return {
        id: this.ids[d]!,
        key: query.sort === 'relevance' ? s : this.keyOf(query.sort, d),
        match: { field: this.fieldOf(d, codes[d]!, m, tierOf[d]!), score: s, typos: codeTypos(codes[d]!) },
      };
    });
    for (const d of this.tiered) tierOf[d] = KEY_NONE;
    this.tiered.length = 0;
    return { hits, total: final.n, ...(facets && { facets }) };
  }

  /** Sets tierOf for each matched document whose key equals or starts with the whole query. */
  private keyTiers(m: { words: Word[]; terms: string[] }, matched: DocSet) {
    if (this.tierOf.length < this.end) this.tierOf = new Uint8Array(this.idNum.length);
    const wholes: [string, boolean][] = [[m.terms.join(''), false]];
    if (m.words.length === 1) for (const syn of m.words[0]!.synonyms) wholes.push([syn.join(''), true]);
    for (const [whole, synonym] of wholes) {
      const id = this.keyPrefixIds.get(whole.slice(0, 3));
      if (id === undefined) continue;
      const exact = `${SEP}${whole}${SEP}`;
      const prefix = `${SEP}${whole}`;
      this.keyPrefix.forEach(id, (d) => {
        if (!matched.has(d)) return;
        const keys = this.keys[d]!;
        const tier = keys.includes(exact)
          ? synonym
            ? KEY_EXACT_SYNONYM
            : KEY_EXACT
          : keys.includes(prefix)
            ? synonym
              ? KEY_PREFIX_SYNONYM
              : KEY_PREFIX
            : KEY_NONE;
        if (tier > this.tierOf[d]!) {
          if (this.tierOf[d] === KEY_NONE) this.tiered.push(d);
          this.tierOf[d] = tier;
        }
      });
    }
  }

  /** Which field matched best, for a hit of a page. */
  private fieldOf(d: number, code: number, m: { words: Word[]; terms: string[] }, tier: number): MatchField {
    const keys = this.keys[d]!;
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
    const p = this.projects[d]!;
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

  private keyOf(sort: ProjectQuery['sort'], d: number): number | string {
    if (sort === 'updated') return this.updated[d]!;
    if (sort === 'created') return this.created[d]!;
    return this.nameKey[d]!;
  }

  /** Compares document d with a cursor (key, id) under a sort: negative when d comes first ascending. */
  private compareToCursor(sort: ProjectQuery['sort'], d: number, key: number | string, id: string) {
    let c: number;
    if (sort === 'name') c = compareCodePoints(this.nameKey[d]!, String(key));
    else c = (sort === 'updated' ? this.updated[d]! : this.created[d]!) - Number(key);
    if (c !== 0) return c;
    return compareCodePoints(this.ids[d]!, id);
  }

  /** Compares two documents under a sort (ascending). */
  private compareDocs(sort: ProjectQuery['sort'], a: number, b: number): number {
    let c: number;
    if (sort === 'name') c = compareCodePoints(this.nameKey[a]!, this.nameKey[b]!);
    else if (sort === 'updated') c = this.updated[a]! - this.updated[b]!;
    else c = this.created[a]! - this.created[b]!;
    if (c !== 0) return c;
    return this.idNum[a]! - this.idNum[b]! || compareCodePoints(this.ids[a]!, this.ids[b]!);
  }

  /**
   * A relevance page: the scores are few (ranking.ts), so the page is taken score by score from
   * the cursor's on. Within one score, hits go by id: when the score holds many documents the
   * id order is walked from the cursor and stops after what the page needs (O(limit) for a
   * word matching a quarter of the directory); when it holds few, they are selected directly.
   */
  private relevancePage(query: ProjectQuery, final: DocSet): number[] {
    const want = query.limit + 1;
    const desc = query.order === 'desc';
    const after = query.after;
    const asOf = query.asOf ?? Number.POSITIVE_INFINITY;
    // final.code holds match codes; the score adds the key tier
    const tierOf = this.tierOf;
    const code = final.code;
    const scoreOf = (d: number) => SCORES[(code[d]! << 3) | tierOf[d]!]!;
    const counts = new Int32Array(MAX_SCORE + 1);
    const list = final.list;
    for (let i = 0; i < final.n; i++) {
      const d = list[i]!;
      counts[SCORES[(code[d]! << 3) | tierOf[d]!]!]!++;
    }
    const out: number[] = [];
    const start = after ? Math.round(Number(after.key)) : desc ? MAX_SCORE : 0;
    for (let s = start; s >= 0 && s <= MAX_SCORE && out.length < want; s += desc ? -1 : 1) {
      const count = counts[s]!;
      if (count === 0) continue;
      const need = want - out.length;
      const cursorId = after && s === start && Number(after.key) === s ? after.id : undefined;
      const pass = (d: number) => final.has(d) && scoreOf(d) === s && this.updated[d]! <= asOf;
      if ((need * this.live) / count < final.n) {
        // walk the id order from the cursor
        const visit = (d: number) => {
          if (pass(d)) out.push(d);
          return out.length < want;
        };
        const ids = this.ids;
        if (desc) {
          const from =
            cursorId === undefined
              ? this.byId.end()
              : this.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) < 0);
          this.byId.backward(from, visit);
        } else {
          const from =
            cursorId === undefined
              ? this.byId.start()
              : this.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) <= 0);
          this.byId.forward(from, visit);
        }
      } else {
        const dir = desc ? -1 : 1;
        const cmp = (a: number, b: number) =>
          dir * (this.idNum[a]! - this.idNum[b]! || compareCodePoints(this.ids[a]!, this.ids[b]!));
        const ok = (d: number) =>
          scoreOf(d) === s &&
          this.updated[d]! <= asOf &&
          (cursorId === undefined || dir * compareCodePoints(this.ids[d]!, cursorId) > 0);
        out.push(...select(final.list, final.n, need, ok, cmp));
      }
    }
    return out;
  }

  /**
   * A page in updated/created/name order: a walk of the pre-sorted order from the cursor that
   * stops after limit + 1 matches, or, when the matches are few, a selection among them.
   */
  private sortedPage(query: ProjectQuery, final: DocSet): number[] {
    const want = query.limit + 1;
    const dir = query.order === 'asc' ? 1 : -1;
    const after = query.after;
    const asOf = query.asOf ?? Number.POSITIVE_INFINITY;
    if (final.n * final.n > want * Math.max(1, this.live))
      return this.walkOrder(query, (d) => final.has(d) && this.updated[d]! <= asOf);
    const cmp = (a: number, b: number) => dir * this.compareDocs(query.sort, a, b);
    const ok = (d: number) =>
      this.updated[d]! <= asOf &&
      (!after || dir * this.compareToCursor(query.sort, d, after.key, after.id) > 0);
    return select(final.list, final.n, want, ok, cmp);
  }

  /** Walks the pre-sorted order of the query's sort from its cursor, keeping limit + 1 documents that pass. */
  private walkOrder(query: ProjectQuery, pass: (d: number) => boolean): number[] {
    const list =
      query.sort === 'name' ? this.byName : query.sort === 'created' ? this.byCreated : this.byUpdated;
    const want = query.limit + 1;
    const out: number[] = [];
    const visit = (d: number) => {
      if (pass(d)) out.push(d);
      return out.length < want;
    };
    const after = query.after;
    if (query.order === 'asc') {
      const from = after
        ? list.seek((d) => this.compareToCursor(query.sort, d, after.key, after.id) <= 0)
        : list.start();
      list.forward(from, visit);
    } else {
      const from = after
        ? list.seek((d) => this.compareToCursor(query.sort, d, after.key, after.id) < 0)
        : list.end();
      list.backward(from, visit);
    }
    return out;
  }

  /** Without q: a walk of the pre-sorted order, an exact total, and the facets. */
  private listPage(query: ProjectQuery, f: CompiledFilters, facetNames: FacetName[]): ProjectHits {
    if (query.sort === 'relevance') throw new Error('SearchIndex: relevance needs q');
    const none = this.noFilters(f);
    const asOf = query.asOf;
    const page = this.walkOrder(
      query,
      (d) => (asOf === undefined || this.updated[d]! <= asOf) && (none || this.allOk(f, d)),
    );
    let total: number;
    if (none) total = this.live;
    else if (
      f.tagNums === undefined &&
      f.linkMask === 0 &&
      f.source === undefined &&
      f.updatedAfter === undefined
    )
      total = this.statusCount[f.status]!;
    else {
      total = 0;
      this.universe(f, (d) => {
        if (this.allOk(f, d)) total++;
      });
    }
    let facets: ProjectFacets | undefined;
    if (facetNames.length > 0) {
      if (none) facets = this.maintainedFacets(facetNames);
      else {
        facets = this.facetPass(f, facetNames, undefined);
      }
    }
    return {
      hits: page.map((d) => ({ id: this.ids[d]!, key: this.keyOf(query.sort, d) })),
      total,
      ...(facets && { facets }),
    };
  }

  /** Visits every document that may pass the filters: a tag's postings when tags are required, else all. */
  private universe(f: CompiledFilters, visit: (d: number) => void) {
    if (f.tagsImpossible) return;
    if (f.tagNums && f.tagMode === 'all') {
      let rarest = f.tagNums[0]!;
      for (const t of f.tagNums) if (this.tagDocs.size(t) < this.tagDocs.size(rarest)) rarest = t;
      this.tagDocs.forEach(rarest, visit);
      return;
    }
    if (f.tagNums && f.tagMode === 'any') {
      const seen = this.acquire(SLOT_SEEN);
      for (const t of f.tagNums)
        this.tagDocs.forEach(t, (d) => {
          if (!seen.has(d)) {
            seen.best(d, 1);
            visit(d);
          }
        });
      return;
    }
    for (let d = 0; d < this.end; d++) if (this.projects[d]) visit(d);
  }

  private maintainedFacets(names: FacetName[]): ProjectFacets {
    const out: ProjectFacets = {};
    if (names.includes('status'))
      out.status = valueFacet(STATUSES.map((s, i) => [s, this.statusCount[i + 1]!]));
    if (names.includes('linkTypes'))
      out.linkTypes = valueFacet(LINK_TYPES.map((t, i) => [t, this.linkCount[i]!]));
    if (names.includes('tags')) {
      const nums: number[] = [];
      for (let t = 0; t < this.tags.length; t++) if (this.tags[t] && this.tagCount[t]! > 0) nums.push(t);
      out.tags = this.tagFacet(nums, (t) => this.tagCount[t]!);
    }
    return out;
  }

  /**
   * The facets of a set of documents (the matches of q, or every document): each counts those
   * passing every filter but its own, in one pass. When a facet's count is the whole set (no
   * other filter) and the set is most of the directory, it is the maintained count minus a
   * count of the documents outside the set, which are fewer.
   */
  private facetPass(f: CompiledFilters, names: FacetName[], set: DocSet | undefined): ProjectFacets {
    const hasStatus = f.status !== 0;
    const hasTags = f.tagNums !== undefined;
    const hasLinks = f.linkMask !== 0;
    const hasOthers = f.source !== undefined || f.updatedAfter !== undefined;
    const size = set ? set.n : this.live;
    const inverse = size > this.live / 2 && !hasOthers;
    const wantStatus = names.includes('status');
    const wantLinks = names.includes('linkTypes');
    const wantTags = names.includes('tags');
    // which facets are counted as "maintained minus the rest", which directly
    const statusInv = wantStatus && inverse && !hasTags && !hasLinks;
    const linksInv = wantLinks && inverse && !hasStatus && !hasTags;
    const tagsInv = wantTags && inverse && !hasStatus && !hasLinks;
    const statusCounts = [0, 0, 0];
    const linkCounts = [0, 0, 0, 0];
    if (this.facetTagCounts.length < this.tags.length)
      this.facetTagCounts = new Int32Array(this.tags.length * 2);
    const tagCounts = this.facetTagCounts;
    const touched: number[] = [];
    const { slab, at, count } = this.docTags;
    const countTags = (d: number) => {
      const to = at[d]! + count[d]!;
      for (let i = at[d]!; i < to; i++) if (tagCounts[slab[i]!]!++ === 0) touched.push(slab[i]!);
    };
    const countLinks = (d: number) => {
      const mask = this.linkMask[d]!;
      for (let b = 0; b < 4; b++) if (mask & (1 << b)) linkCounts[b]!++;
    };
    if (set && (statusInv || linksInv || tagsInv)) {
      // the documents outside the set
      const status = this.status;
      for (let d = 0; d < this.end; d++) {
        if (status[d] === 0 || set.has(d)) continue;
        if (statusInv) statusCounts[this.status[d]!]!++;
        if (linksInv) countLinks(d);
        if (tagsInv) countTags(d);
      }
    }
    const direct = (wantStatus && !statusInv) || (wantLinks && !linksInv) || (wantTags && !tagsInv);
    if (direct) {
      const visit = (d: number) => {
        if (hasOthers && !this.othersOk(f, d)) return;
        const s = !hasStatus || this.status[d] === f.status;
        const t = !hasTags || this.tagsOk(f, d);
        const l = !hasLinks || (this.linkMask[d]! & f.linkMask) === f.linkMask;
        if (wantStatus && !statusInv && t && l) statusCounts[this.status[d]!]!++;
        if (wantLinks && !linksInv && s && t) countLinks(d);
        if (wantTags && !tagsInv && s && l) countTags(d);
      };
      if (set) for (let i = 0; i < set.n; i++) visit(set.list[i]!);
      else for (let d = 0; d < this.end; d++) if (this.projects[d]) visit(d);
    }
    const out: ProjectFacets = {};
    if (wantStatus)
      out.status = valueFacet(
        STATUSES.map((v, i) => [
          v,
          statusInv ? this.statusCount[i + 1]! - statusCounts[i + 1]! : statusCounts[i + 1]!,
        ]),
      );
    if (wantLinks)
      out.linkTypes = valueFacet(
        LINK_TYPES.map((v, i) => [v, linksInv ? this.linkCount[i]! - linkCounts[i]! : linkCounts[i]!]),
      );
    if (wantTags) {
      if (tagsInv) {
        const nums: number[] = [];
        for (let t = 0; t < this.tags.length; t++)
          if (this.tags[t] && this.tagCount[t]! - tagCounts[t]! > 0) nums.push(t);
        out.tags = this.tagFacet(nums, (t) => this.tagCount[t]! - tagCounts[t]!);
      } else out.tags = this.tagFacet(touched, (t) => tagCounts[t]!);
    }
    for (const t of touched) tagCounts[t] = 0;
    return out;
  }

  /** The top tags by count, ties by slug (compared as ranks in slug order, kept while no tag changes). */
  private tagFacet(nums: number[], count: (t: number) => number) {
    if (this.slugRankOf !== this.tagChanges) {
      const order = [];
      for (let t = 0; t < this.tags.length; t++) if (this.tags[t]) order.push(t);
      order.sort((a, b) => compareCodePoints(this.tags[a]!.slug, this.tags[b]!.slug));
      this.slugRank = new Int32Array(this.tags.length);
      order.forEach((t, i) => {
        this.slugRank[t] = i;
      });
      this.slugRankOf = this.tagChanges;
    }
    const rank = this.slugRank;
    const counts = new Map(nums.map((t) => [t, count(t)]));
    const top = nums
      .sort((a, b) => counts.get(b)! - counts.get(a)! || rank[a]! - rank[b]!)
      .slice(0, TOP_TAGS);
    return top.map((t) => {
      const tag = this.tags[t]!;
      return { slug: tag.slug, name: tag.name, nameEn: tag.nameEn, count: counts.get(t)! };
    });
  }

  // ————————————————————————————————————————— tags list

  findTags(query: TagQuery): { hits: TagHit[]; total: number } {
    const terms = query.q === undefined ? undefined : [...new Set(tokens(query.q))].slice(0, MAX_QUERY_TERMS);
    if (terms && terms.length === 0) return { hits: [], total: 0 };
    const patterns = terms?.map((t) => (!isCjkToken(t) && t.length <= 2 ? ` ${t}` : t));
    const found: number[] = [];
    for (let t = 0; t < this.tags.length; t++) {
      if (!this.tags[t]) continue;
      if (patterns && !patterns.every((p) => this.tagSearch[t]!.includes(p))) continue;
      found.push(t);
    }
    const byCount = query.sort === 'count';
    const cmp = (a: number, b: number) =>
      byCount
        ? this.tagCount[b]! - this.tagCount[a]! || compareCodePoints(this.tags[a]!.id, this.tags[b]!.id)
        : compareCodePoints(this.tagNameKey[a]!, this.tagNameKey[b]!) ||
          compareCodePoints(this.tags[a]!.id, this.tags[b]!.id);
    const after = query.after;
    const afterCursor = (t: number) => {
      if (!after) return true;
      const id = this.tags[t]!.id;
      if (byCount) {
        const k = Number(after.key);
        const c = this.tagCount[t]!;
        return c < k || (c === k && compareCodePoints(id, after.id) > 0);
      }
      const c = compareCodePoints(this.tagNameKey[t]!, String(after.key));
      return c > 0 || (c === 0 && compareCodePoints(id, after.id) > 0);
    };
    const page = select(found, found.length, query.limit + 1, afterCursor, cmp);
    return {
      hits: page.map((t) => ({
        id: this.tags[t]!.id,
        key: byCount ? this.tagCount[t]! : this.tagNameKey[t]!,
        projectCount: this.tagCount[t]!,
      })),
      total: found.length,
    };
  }
}

/** Whether a query term hits a token: as the engine matches (substring, 1–2 letter prefix, typos). */
function termHits(term: string, token: string, typos: number): boolean {
  if (isCjkToken(term)) return token.includes(term);
  if (term.length <= 2 ? token.startsWith(term) : token.includes(term)) return true;
  const k = Math.min(typos, allowedTypos(term));
  return k > 0 && prefixDistance(term, k, token) <= k;
}

function valueFacet(pairs: [string, number][]): ValueFacet[] {
  return pairs
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
    .map(([value, count]) => ({ value, count }));
}

/**
 * The first `want` of `n` items in `cmp` order among those passing `pass`, without sorting
 * them all: a bounded max-heap of the best so far (the worst on top, replaced when beaten).
 */
function select(
  items: ArrayLike<number>,
  n: number,
  want: number,
  pass: (x: number) => boolean,
  cmp: (a: number, b: number) => number,
): number[] {
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(heap[i]!, heap[p]!) <= 0) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l]!, heap[m]!) > 0) m = l;
      if (r < heap.length && cmp(heap[r]!, heap[m]!) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < n; i++) {
    const x = items[i]!;
    if (heap.length === want && cmp(x, heap[0]!) >= 0) continue;
    if (!pass(x)) continue;
    if (heap.length < want) {
      heap.push(x);
      up(heap.length - 1);
    } else {
      heap[0] = x;
      down(0);
    }
  }
  return heap.sort(cmp);
}
