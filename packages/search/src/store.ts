import { DocTags } from './doc-tags.ts';
import { BATCH_PUT, PAIR_BATCH } from './limits.ts';
import { OwnerPostings } from './owners.ts';
import { PairBuffer } from './pair-buffer.ts';
import { Postings, setBit } from './postings.ts';
import { SortedList } from './sorted-list.ts';
import { idNumber, type Terms, termsOf } from './terms.ts';
import { compareCodePoints, nameSortKey, pinyinSyllables, tokens } from './text.ts';
import type { IndexedProject, IndexedTag, LinkType, ProjectStatus } from './types.ts';
import { Vocabulary } from './vocabulary.ts';

/*
 * The engine's state and its writes: per document (dense numbers; a removed project's number
 * is reused) typed arrays, the postings of terms, grams, key prefixes and tags, the maintained
 * counts, the sorted orders, the tags and the synonyms. A put diffs a project's old and new
 * terms (O(its tokens)); a large put (a build) buffers its pairs and sorts the orders once.
 * The queries (matching.ts, pages.ts, filters.ts, facets.ts) read these fields; only this
 * file writes them.
 */

export const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
export const STATUSES: readonly ProjectStatus[] = ['ACTIVE', 'ARCHIVED'];
/** Keys per document: name, nameEn, slug, full pinyin, initials (ranking.ts KEY_FIELDS). */
export const KEYS = 5;
export const NO_SOURCE = -1;
export const UNKNOWN_SOURCE = -2;

/** Which orders a replaced document moves in (its sort key there changed). */
interface Moved {
  updated: boolean;
  created: boolean;
  name: boolean;
  keys: boolean;
}
const ALL_MOVED: Moved = { updated: true, created: true, name: true, keys: true };

/** Whether two documents' terms have the same keys (byKey compares each key's text). */
function sameKeys(a: Terms, b: Terms): boolean {
  for (let k = 0; k < a.keyLen.length; k++) {
    const n = a.keyLen[k]!;
    if (n !== b.keyLen[k]) return false;
    if (n > 0 && a.keys.substr(a.keyAt[k]!, n) !== b.keys.substr(b.keyAt[k]!, n)) return false;
  }
  return a.keyLen.length === b.keyLen.length;
}

export class Store {
  // per document (dense numbers; a removed project's number is reused)
  projects: (IndexedProject | undefined)[] = [];
  ids: string[] = [];
  idNum = new Float64Array(1024);
  status = new Uint8Array(1024);
  linkMask = new Uint8Array(1024);
  sourceOf = new Int32Array(1024);
  updated = new Float64Array(1024);
  created = new Float64Array(1024);
  plain = new Uint8Array(1024);
  nameKey: string[] = [];
  keys: string[] = [];
  /** Where each of a document's 5 keys starts in keys[d] (KEYS per document). */
  keyAt = new Uint16Array(1024 * KEYS);
  keyLen = new Uint16Array(1024 * KEYS);
  readonly docTags = new DocTags();
  readonly docOf = new Map<string, number>();
  free: number[] = [];
  end = 0;
  live = 0;

  // postings
  readonly vocab = new Vocabulary();
  readonly latinName = new Postings();
  readonly latinDesc = new Postings();
  readonly cjkIds = new Map<number, number>();
  readonly cjkName = new Postings();
  readonly cjkDesc = new Postings();
  readonly tagDocs = new Postings();
  /** The documents of each owner of links (owners.ts): related projects read them. */
  readonly owners = new OwnerPostings();
  /**
   * The documents of each key prefix of 1 to KEY_PREFIX_MAX code units (by keyPrefixCode):
   * whether any key of a document starts with a short query is then a posting list (read as
   * a bitmap when dense), not a walk over the keys of byKey's range (pages.ts keyTiers).
   */
  readonly keyPrefixIds = new Map<number, number>();
  readonly keyPrefix = new Postings();

  // maintained counts (facets of the whole directory, tags' projectCount)
  statusCount = [0, 0, 0];
  linkCount = [0, 0, 0, 0];
  tagCount: number[] = [];
  /**
   * The documents of each status (by its number, 1 and 2) and of each link type, as bitmaps
   * kept by the same writes as the counts: a facet pass over many matches counts each value
   * as a population count of its AND with the matches (facets.ts).
   */
  statusBits: Uint32Array[] = [new Uint32Array(0), new Uint32Array(32), new Uint32Array(32)];
  linkBits: Uint32Array[] = [0, 1, 2, 3].map(() => new Uint32Array(32));

  // sorted orders
  readonly byUpdated: SortedList;
  readonly byCreated: SortedList;
  readonly byName: SortedList;
  /** Id order: ties of a relevance page are walked in it. */
  readonly byId: SortedList;
  /**
   * Every non-empty key of every document (entry d × KEYS + slot) in key order: the documents
   * whose key equals the whole query, or starts with it, are a range found by two binary
   * searches (the rank tiers of pages.ts, as sets, without reading a document's text).
   */
  readonly byKey: SortedList;

  // sources
  readonly sourceIds = new Map<string, number>();

  // tags (numbers are not reused: tags are few)
  tags: (IndexedTag | undefined)[] = [];
  tagText: string[] = [];
  tagTokens: string[][] = [];
  tagSearch: string[] = [];
  tagNameKey: string[] = [];
  readonly tagOf = new Map<string, number>();
  readonly tagBySlug = new Map<string, number>();
  tagVersion = 0;
  /** Bumped by every change of tags (slugs included). */
  tagChanges = 0;

  // synonyms: a term (its tokens joined by spaces) → its set
  synonymOf = new Map<string, number>();
  synonymSets: string[][][] = [];
  synonymTokenCounts: number[] = [];

  /** Compares the keys of two entries (d × KEYS + slot) by UTF-16 code units. */
  compareKey(a: number, b: number): number {
    const ka = this.keys[(a / KEYS) | 0]!;
    const kb = this.keys[(b / KEYS) | 0]!;
    const fa = this.keyAt[a]!;
    const fb = this.keyAt[b]!;
    const la = this.keyLen[a]!;
    const lb = this.keyLen[b]!;
    const n = Math.min(la, lb);
    for (let i = 0; i < n; i++) {
      const c = ka.charCodeAt(fa + i) - kb.charCodeAt(fb + i);
      if (c !== 0) return c;
    }
    return la - lb;
  }

  /** Compares an entry's key with a text (code units): negative, zero or positive. */
  compareKeyTo(e: number, text: string): number {
    const k = this.keys[(e / KEYS) | 0]!;
    const from = this.keyAt[e]!;
    const len = this.keyLen[e]!;
    const n = Math.min(len, text.length);
    for (let i = 0; i < n; i++) {
      const c = k.charCodeAt(from + i) - text.charCodeAt(i);
      if (c !== 0) return c;
    }
    return len - text.length;
  }

  /** Whether an entry's key starts with a text. */
  keyStartsWith(e: number, text: string): boolean {
    return this.keyLen[e]! >= text.length && this.keys[(e / KEYS) | 0]!.startsWith(text, this.keyAt[e]!);
  }

  constructor() {
    const cmpId = (a: number, b: number) =>
      this.idNum[a]! - this.idNum[b]! || compareCodePoints(this.ids[a]!, this.ids[b]!);
    this.byId = new SortedList(cmpId);
    this.byKey = new SortedList((a, b) => this.compareKey(a, b) || a - b);
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
    // a batch (a build reads 20,000 at a time) buffers its postings and adds them by term,
    // and leaves its new documents for the orders to take in at once (prepare: one sort)
    const batch = projects.length > BATCH_PUT;
    for (const p of projects) {
      const tagNums = p.tagIds.map((id) => {
        const num = this.tagOf.get(id);
        if (num === undefined) throw new Error(`SearchIndex.put: tag ${id} was not put first`);
        return num;
      });
      const d = this.docOf.get(p.id);
      if (d === undefined) this.insert(p, tagNums, batch);
      else {
        // a replace diffs against the postings and moves in the orders: both up to date first
        this.flushPairs();
        this.flushOrders();
        this.replace(d, p, tagNums);
      }
    }
    if (batch) {
      this.flushPairs();
      this.pairs.clear();
      this.prepare();
    }
  }

  /**
   * Takes the documents of a batch into the orders (one sort), and the new tokens into the
   * vocabulary's order: a batch put ends with it, so that a query only reads.
   */
  prepare(): void {
    this.flushOrders();
    this.vocab.prepare();
  }

  /** New documents of batches, not in the orders yet. */
  private unordered: number[] = [];

  private flushOrders() {
    if (this.unordered.length === 0) return;
    if (this.unordered.length > this.live / 8) {
      const all: number[] = [];
      for (let d = 0; d < this.end; d++) if (this.projects[d]) all.push(d);
      this.resetOrders(all);
    } else for (const d of this.unordered) this.order(d);
    this.unordered = [];
  }

  private resetOrders(all: number[]) {
    this.byUpdated.reset(all.slice());
    this.byCreated.reset(all.slice());
    this.byName.reset(all.slice());
    const entries: number[] = [];
    for (const d of all)
      for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (this.keyLen[e]! > 0) entries.push(e);
    this.byKey.reset(entries);
    this.byId.reset(all);
  }

  remove(projectIds: string[]): void {
    this.flushOrders();
    for (const id of projectIds) {
      const d = this.docOf.get(id);
      if (d === undefined) continue;
      const p = this.projects[d]!;
      this.unorder(d);
      this.unpost(d, termsOf(p));
      this.owners.set(d, p.linkUrls, undefined);
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
    const keyAt = new Uint16Array(n * KEYS);
    keyAt.set(this.keyAt);
    this.keyAt = keyAt;
    const keyLen = new Uint16Array(n * KEYS);
    keyLen.set(this.keyLen);
    this.keyLen = keyLen;
    const s = new Int32Array(n);
    s.set(this.sourceOf);
    this.sourceOf = s;
  }

  private insert(p: IndexedProject, tagNums: number[], batch: boolean) {
    const d = this.free.pop() ?? this.end++;
    this.grow(this.end);
    this.docOf.set(p.id, d);
    this.ids[d] = p.id;
    this.idNum[d] = idNumber(p.id);
    this.live++;
    const terms = termsOf(p);
    this.setDoc(d, p, tagNums, terms);
    if (batch) this.bufferPairs(d, terms);
    else this.post(d, terms);
    this.count(d);
    if (batch) this.unordered.push(d);
    else this.order(d);
  }

  private replace(d: number, p: IndexedProject, tagNums: number[]) {
    const old = this.projects[d]!;
    const before = termsOf(old);
    const after = termsOf(p);
    // only the orders whose sort key changed are moved (an update moves updatedAt, rarely more):
    // the others keep the document where it is (its id, and so its place in byId, never changes)
    const moved: Moved = {
      updated: old.updatedAt !== p.updatedAt,
      created: old.createdAt !== p.createdAt,
      name: before.nameKey !== after.nameKey,
      keys: !sameKeys(before, after),
    };
    this.unorder(d, moved);
    this.uncount(d);
    this.diff(d, before, after);
    this.setDoc(d, p, tagNums, after);
    this.count(d);
    this.order(d, moved);
  }

  private setDoc(d: number, p: IndexedProject, tagNums: number[], terms: Terms) {
    this.owners.set(d, this.projects[d]?.linkUrls, p.linkUrls);
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
    for (let k = 0; k < KEYS; k++) {
      this.keyAt[d * KEYS + k] = terms.keyAt[k]!;
      this.keyLen[d * KEYS + k] = terms.keyLen[k]!;
    }
    const old = this.docTags.get(d);
    const next = [...new Set(tagNums)];
    for (const t of old) if (!next.includes(t)) this.tagDocs.delete(t, d);
    for (const t of next) if (!old.includes(t)) this.tagDocs.add(t, d);
    this.docTags.set(d, next);
  }

  private order(d: number, moved: Moved = ALL_MOVED) {
    if (moved === ALL_MOVED) this.byId.insert(d);
    if (moved.keys)
      for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (this.keyLen[e]! > 0) this.byKey.insert(e);
    if (moved.updated) this.byUpdated.insert(d);
    if (moved.created) this.byCreated.insert(d);
    if (moved.name) this.byName.insert(d);
  }

  private unorder(d: number, moved: Moved = ALL_MOVED) {
    if (moved === ALL_MOVED) this.byId.remove(d);
    if (moved.keys)
      for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (this.keyLen[e]! > 0) this.byKey.remove(e);
    if (moved.updated) this.byUpdated.remove(d);
    if (moved.created) this.byCreated.remove(d);
    if (moved.name) this.byName.remove(d);
  }

  private count(d: number) {
    const s = this.status[d]!;
    this.statusCount[s]!++;
    this.statusBits[s] = setBit(this.statusBits[s]!, d);
    const mask = this.linkMask[d]!;
    for (let i = 0; i < 4; i++)
      if (mask & (1 << i)) {
        this.linkCount[i]!++;
        this.linkBits[i] = setBit(this.linkBits[i]!, d);
      }
    for (const t of this.docTags.get(d)) this.tagCount[t]!++;
  }

  private uncount(d: number) {
    const s = this.status[d]!;
    this.statusCount[s]!--;
    clearBit(this.statusBits[s]!, d);
    const mask = this.linkMask[d]!;
    for (let i = 0; i < 4; i++)
      if (mask & (1 << i)) {
        this.linkCount[i]!--;
        clearBit(this.linkBits[i]!, d);
      }
    for (const t of this.docTags.get(d)) this.tagCount[t]!--;
  }

  private keyPrefixId(code: number): number {
    let id = this.keyPrefixIds.get(code);
    if (id === undefined) {
      id = this.keyPrefixIds.size;
      this.keyPrefixIds.set(code, id);
    }
    return id;
  }

  private cjkId(gram: number): number {
    let id = this.cjkIds.get(gram);
    if (id === undefined) {
      id = this.cjkIds.size;
      this.cjkIds.set(gram, id);
    }
    return id;
  }

  /** Pairs of a bulk put, per postings: added by term once the batch is read (Postings.addPairs). */
  readonly pairs = new Map<Postings, PairBuffer>();

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
    const keyPrefix = this.pairBuffer(this.keyPrefix);
    for (const k of t.keyPrefixes) keyPrefix.push(this.keyPrefixId(k), d);
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
    for (const k of t.keyPrefixes) this.keyPrefix.add(this.keyPrefixId(k), d);
  }

  private unpost(d: number, t: Terms) {
    for (const s of t.latinName) this.latinName.delete(this.vocab.id(s)!, d);
    for (const s of t.latinDesc) this.latinDesc.delete(this.vocab.id(s)!, d);
    for (const s of t.cjkName) this.cjkName.delete(this.cjkIds.get(s)!, d);
    for (const s of t.cjkDesc) this.cjkDesc.delete(this.cjkIds.get(s)!, d);
    for (const k of t.keyPrefixes) this.keyPrefix.delete(this.keyPrefixIds.get(k)!, d);
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
    each(a.latinName, b.latinName, this.latinName, vocab, vocabKnown);
    each(a.latinDesc, b.latinDesc, this.latinDesc, vocab, vocabKnown);
    each(a.cjkName, b.cjkName, this.cjkName, cjk, cjkKnown);
    each(a.cjkDesc, b.cjkDesc, this.cjkDesc, cjk, cjkKnown);
    // keyPrefixes hold each prefix of a document once, over all its keys: a prefix another key still has stays
    const prefix = (k: number) => this.keyPrefixId(k);
    const prefixKnown = (k: number) => this.keyPrefixIds.get(k)!;
    each(a.keyPrefixes, b.keyPrefixes, this.keyPrefix, prefix, prefixKnown);
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
    bytes += this.tagDocs.bytes() + this.docTags.bytes() + this.owners.bytes();
    bytes += this.keyPrefix.bytes() + this.keyPrefixIds.size * 64;
    for (const b of [...this.statusBits, ...this.linkBits]) bytes += b.byteLength;
    bytes += this.cjkIds.size * 64;
    bytes += this.byUpdated.bytes() + this.byCreated.bytes() + this.byName.bytes() + this.byId.bytes();
    bytes += this.byKey.bytes();
    let tags = 0;
    for (const t of this.tags) if (t) tags++;
    bytes += tags * 400;
    return { projects: this.live, tags, bytes };
  }
}

function clearBit(bits: Uint32Array, d: number): void {
  if (d >>> 5 < bits.length) bits[d >>> 5]! &= ~(1 << (d & 31));
}
