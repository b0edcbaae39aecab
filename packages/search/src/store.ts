import { DocTags } from './doc-tags.ts';
import { BATCH_PUT } from './limits.ts';
import { OwnerPostings } from './owners.ts';
import type { PairBuffer } from './pair-buffer.ts';
import { Postings } from './postings.ts';
import { SortedList } from './sorted-list.ts';
import { grow, setDoc, stats } from './store-documents.ts';
import { count, flushOrders, type Moved, order, uncount, unorder } from './store-orders.ts';
import { bufferPairs, diff, flushPairs, post, unpost } from './store-postings.ts';
import { putTags, removeTags, setSynonyms } from './store-tags.ts';
import { idNumber, type Terms, termsOf } from './terms.ts';
import { compareCodePoints } from './text.ts';
import type { IndexedProject, IndexedTag, LinkType, ProjectStatus } from './types.ts';
import { Vocabulary } from './vocabulary.ts';

/*
 * The engine's state and its writes: per document (dense numbers; a removed project's number
 * is reused) typed arrays, the postings of terms, grams, key prefixes and tags, the maintained
 * counts, the sorted orders, the tags and the synonyms. A put diffs a project's old and new
 * terms (O(its tokens)); a large put (a build) buffers its pairs and sorts the orders once.
 * Queries only read these fields; this file and its store-*.ts parts alone write them.
 */

export const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
export const STATUSES: readonly ProjectStatus[] = ['ACTIVE', 'ARCHIVED'];
/** Keys per document: name, nameEn, slug, full pinyin, initials (ranking.ts KEY_FIELDS). */
export const KEYS = 5;
export const NO_SOURCE = -1;
export const UNKNOWN_SOURCE = -2;

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

  // ————————————————————————————————————————— tags (store-tags.ts)

  putTags(tags: IndexedTag[]): void {
    putTags(this, tags);
  }

  removeTags(tagIds: string[]): void {
    removeTags(this, tagIds);
  }

  setSynonyms(sets: string[][]): void {
    setSynonyms(this, sets);
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

  // ————————————————————————————————————————— projects

  /** `more`: later batches follow (a build); their orders are sorted once by prepare(). */
  put(projects: IndexedProject[], more = false): void {
    // a batch buffers its postings and adds them by term, its documents' orders sorted at once
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
        flushPairs(this);
        flushOrders(this);
        this.replace(d, p, tagNums);
      }
    }
    if (batch) {
      flushPairs(this);
      this.pairs.clear();
      if (!more) this.prepare();
    }
  }

  /**
   * Takes the documents of a batch into the orders (one sort), and the new tokens into the
   * vocabulary's order: a batch put ends with it, so that a query only reads.
   */
  prepare(): void {
    flushOrders(this);
    this.vocab.prepare();
  }

  /** New documents of batches, not in the orders yet. */
  unordered: number[] = [];

  remove(projectIds: string[]): void {
    flushOrders(this);
    for (const id of projectIds) {
      const d = this.docOf.get(id);
      if (d === undefined) continue;
      const p = this.projects[d]!;
      unorder(this, d);
      unpost(this, d, termsOf(p));
      this.owners.set(d, p.linkUrls, undefined);
      uncount(this, d);
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

  private insert(p: IndexedProject, tagNums: number[], batch: boolean) {
    const d = this.free.pop() ?? this.end++;
    grow(this, this.end);
    this.docOf.set(p.id, d);
    this.ids[d] = p.id;
    this.idNum[d] = idNumber(p.id);
    this.live++;
    const terms = termsOf(p);
    setDoc(this, d, p, tagNums, terms);
    if (batch) bufferPairs(this, d, terms);
    else post(this, d, terms);
    count(this, d);
    if (batch) this.unordered.push(d);
    else order(this, d);
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
    unorder(this, d, moved);
    uncount(this, d);
    diff(this, d, before, after);
    setDoc(this, d, p, tagNums, after);
    count(this, d);
    order(this, d, moved);
  }

  /** Pairs of a bulk put, per postings: added by term once the batch is read (Postings.addPairs). */
  readonly pairs = new Map<Postings, PairBuffer>();

  stats(): { projects: number; tags: number; bytes: number } {
    return stats(this);
  }
}
