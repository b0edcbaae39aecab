import { BATCH_PUT } from './limits.ts';
import { standingOf } from './rules/standing.ts';
import { grow, setDoc, stats } from './store-documents.ts';
import { count, flushOrders, type Moved, order, uncount, unorder } from './store-orders.ts';
import { bufferPairs, diff, flushPairs, post, unpost } from './store-postings.ts';
import { StoreState } from './store-state.ts';
import { putTags, removeTags, setSynonyms } from './store-tags.ts';
import { idNumber, type Terms, termsOf } from './terms.ts';
import type { IndexedProject, IndexedTag } from './types.ts';

export { KEYS, LINK_TYPES, NO_SOURCE, STATUSES, UNKNOWN_SOURCE } from './store-state.ts';

/*
 * The engine's state and its writes: per document (dense numbers; a removed project's number
 * is reused) typed arrays, the postings of terms, grams, key prefixes and tags, the maintained
 * counts, the sorted orders, the tags and the synonyms. A put diffs a project's old and new
 * terms (O(its tokens)); a large put (a build) buffers its pairs and sorts the orders once.
 * Queries only read these fields; this file and its store-*.ts parts alone write them.
 */

/** Whether two documents' terms have the same keys (byKey compares each key's text). */
function sameKeys(a: Terms, b: Terms): boolean {
  for (let k = 0; k < a.keyLen.length; k++) {
    const n = a.keyLen[k]!;
    if (n !== b.keyLen[k]) return false;
    if (n > 0 && a.keys.substr(a.keyAt[k]!, n) !== b.keys.substr(b.keyAt[k]!, n)) return false;
  }
  return a.keyLen.length === b.keyLen.length;
}

export class Store extends StoreState {
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

  /** A project as it was put (tags without repeats), or undefined. */
  project(id: string): IndexedProject | undefined {
    const d = this.docOf.get(id);
    return d === undefined ? undefined : this.projectAt(d);
  }

  /** The id of the project with this slug (the one put last), or undefined. */
  idOfSlug(slug: string): string | undefined {
    const d = this.bySlug.get(slug);
    return d === undefined ? undefined : this.ids[d];
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
   * vocabulary's order: a batch put ends with it, so that a query only reads. The arrays grown
   * by doubling give back their room.
   */
  prepare(): void {
    flushOrders(this);
    this.vocab.prepare();
    // the room the build's doublings left, given back
    this.text.trim();
    for (const p of [
      this.latinName,
      this.latinDesc,
      this.cjkName,
      this.cjkDesc,
      this.tagDocs,
      this.keyPrefix,
    ])
      p.trim();
    this.owners.docs.trim();
  }

  remove(projectIds: string[]): void {
    flushOrders(this);
    for (const id of projectIds) {
      const d = this.docOf.get(id);
      if (d === undefined) continue;
      const p = this.projectAt(d)!;
      unorder(this, d);
      unpost(this, d, termsOf(p));
      this.owners.set(d, this.ownersAt(d), []);
      uncount(this, d);
      this.docOf.deleteDoc(id, d);
      this.bySlug.deleteDoc(p.slug, d);
      this.text.delete(d);
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
    this.ids[d] = p.id;
    this.docOf.set(p.id, d);
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
    const old = this.projectAt(d)!;
    const before = termsOf(old);
    // a change of tags, links, status or times only (a tag merge's thousands): the same terms
    const after = sameText(old, p) ? before : termsOf(p);
    // only the orders whose sort key changed are moved (an update moves updatedAt, rarely more):
    // the others keep the document where it is (its id, and so its place in byId, never changes)
    const moved: Moved = {
      updated: old.updatedAt !== p.updatedAt,
      created: old.createdAt !== p.createdAt,
      name: before.nameKey !== after.nameKey,
      keys: !sameKeys(before, after),
      rank: before.brevity !== after.brevity || standingOf(old) !== standingOf(p),
      standing: old.updatedAt !== p.updatedAt || standingOf(old) !== standingOf(p),
    };
    unorder(this, d, moved);
    uncount(this, d);
    if (after !== before) diff(this, d, before, after);
    setDoc(this, d, p, tagNums, after, old);
    count(this, d);
    order(this, d, moved);
  }

  stats(): { projects: number; tags: number; bytes: number } {
    return stats(this);
  }
}

/** Whether two versions of a project have the same text: the fields its terms come from (terms.ts). */
const sameText = (a: IndexedProject, b: IndexedProject) =>
  a.name === b.name &&
  a.nameEn === b.nameEn &&
  a.slug === b.slug &&
  a.description === b.description &&
  a.descriptionEn === b.descriptionEn;
