import { DocTable } from './doc-table.ts';
import { DocTags } from './doc-tags.ts';
import { DocText } from './doc-text.ts';
import { type Owner, OwnerPostings } from './owners.ts';
import type { PairBuffer } from './pair-buffer.ts';
import { Postings } from './postings.ts';
import { compareRank } from './rules/rank-order.ts';
import { SortedList } from './sorted-list.ts';
import { KEYS } from './terms.ts';
import { compareCodePoints } from './text.ts';
import type { IndexedProject, IndexedTag, LinkType, ProjectStatus } from './types.ts';
import { Vocabulary } from './vocabulary.ts';

/*
 * The engine's state: per document (dense numbers; a removed project's number is reused)
 * typed arrays, the postings, the maintained counts, the sorted orders, the tags and the
 * synonyms. Queries only read these fields; store.ts and its store-*.ts parts alone write them
 * (the parts take this class, so that none of them imports store.ts).
 */

export const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
export const STATUSES: readonly ProjectStatus[] = ['ACTIVE', 'ARCHIVED'];
export { KEYS } from './terms.ts';
export const NO_SOURCE = -1;
export const UNKNOWN_SOURCE = -2;

export class StoreState {
  // per document (dense numbers; a removed project's number is reused)
  /** Each document's id, texts, link types and URLs (doc-text.ts): read back by projectAt. */
  readonly text = new DocText();
  ids: string[] = [];
  idNum = new Float64Array(1024);
  status = new Uint8Array(1024);
  linkMask = new Uint8Array(1024);
  sourceOf = new Int32Array(1024);
  updated = new Float64Array(1024);
  created = new Float64Array(1024);
  /** Each document's standing (IndexedProject.standing; docs/search.md#signals-and-standing). */
  standing = new Uint32Array(1024);
  plain = new Uint8Array(1024);
  /** How short each document's shortest name is (rules/coverage.ts). */
  brevity = new Uint16Array(1024);
  nameKey: string[] = [];
  keys: string[] = [];
  /** Where each of a document's 5 keys starts in keys[d] (KEYS per document). */
  keyAt = new Uint16Array(1024 * KEYS);
  keyLen = new Uint16Array(1024 * KEYS);
  readonly docTags = new DocTags();
  /** Documents by id, and by slug (the project put last with a slug has it). */
  readonly docOf = new DocTable((d) => this.ids[d]);
  readonly bySlug = new DocTable((d) => this.text.field(d, 'slug'));
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
  /** Standing, then updated, then id: `sort: 'standing'` walks it. */
  readonly byStanding: SortedList;
  /** Id order: the order of a walk's ties (a sort by updated, created or name). */
  readonly byId: SortedList;
  /**
   * The order of a relevance page's ties (rules/coverage.ts, rules/standing.ts): the shortest
   * name first (coverage), then the highest standing, then the highest id. A bucket of the
   * ranking rules is walked in it (backward when the order is ascending).
   */
  readonly byRank: SortedList;
  /**
   * Every non-empty key of every document (entry d × KEYS + slot) in key order: the documents
   * whose key equals the whole query, or starts with it, are a range found by two binary
   * searches (the rank tiers of pages.ts, as sets, without reading a document's text).
   */
  readonly byKey: SortedList;

  // sources
  readonly sourceIds = new Map<string, number>();
  /** The sources by number. */
  sourceNames: string[] = [];

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

  /** Whether document d is a project (status 0: a free number). */
  isLive(d: number): boolean {
    return this.status[d]! > 0;
  }

  /**
   * Document d's project as it was put, but for its links' URLs (the store keeps the owners
   * they name: ownersAt) and repeated tags; undefined when none.
   */
  projectAt(d: number): IndexedProject | undefined {
    const f = this.isLive(d) ? this.text.fields(d) : undefined;
    if (!f) return undefined;
    const source = this.sourceOf[d]!;
    return {
      id: f.id,
      name: f.name,
      nameEn: f.nameEn,
      slug: f.slug,
      description: f.description,
      descriptionEn: f.descriptionEn,
      status: STATUSES[this.status[d]! - 1]!,
      source: source === NO_SOURCE ? null : this.sourceNames[source]!,
      createdAt: this.created[d]!,
      updatedAt: this.updated[d]!,
      standing: this.standing[d]!,
      tagIds: this.docTags.get(d).map((t) => this.tags[t]!.id),
      linkTypes: f.linkTypes,
    };
  }

  /** The owners document d's links name (owners.ts), in their order; none when it has no record. */
  ownersAt(d: number): Owner[] {
    const names = this.text.has(d) ? this.text.fields(d)!.owners : [];
    return names.map((name) => ({ key: name.toLowerCase(), name }));
  }

  /**
   * Every document's project by number, as a list (projectAt each: for tests and tools that
   * read a few; the engine reads `text` and the typed arrays).
   */
  get projects(): readonly (IndexedProject | undefined)[] {
    return new Proxy([] as (IndexedProject | undefined)[], {
      get: (target, k) =>
        typeof k === 'string' && /^\d+$/.test(k) ? this.projectAt(Number(k)) : Reflect.get(target, k),
    });
  }

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
    this.byRank = new SortedList((a, b) => compareRank(this, a, b) || cmpId(b, a));
    this.byKey = new SortedList((a, b) => this.compareKey(a, b) || a - b);
    this.byUpdated = new SortedList((a, b) => this.updated[a]! - this.updated[b]! || cmpId(a, b));
    this.byCreated = new SortedList((a, b) => this.created[a]! - this.created[b]! || cmpId(a, b));
    this.byStanding = new SortedList(
      (a, b) => this.standing[a]! - this.standing[b]! || this.updated[a]! - this.updated[b]! || cmpId(a, b),
    );
    this.byName = new SortedList(
      (a, b) => compareCodePoints(this.nameKey[a]!, this.nameKey[b]!) || cmpId(a, b),
    );
  }

  // a bulk put's buffers (store.ts putBatch)
  /** New documents of batches, not in the orders yet. */
  unordered: number[] = [];
  /** Pairs of a bulk put, per postings: added by term once the batch is read (Postings.addPairs). */
  readonly pairs = new Map<Postings, PairBuffer>();
}
