/*
 * Documents by a text of theirs (an id, a slug): a hash table of document numbers in one
 * Int32Array (open addressing, linear probing), whose keys are read from the documents
 * themselves (`keyOf`), so that it holds no string: a million entries are 8 or 16 MB, and
 * the snapshot writes and reads it as it is. A document's entry must go (`deleteDoc`) before
 * its key changes. A key put again points to the document put last, as a Map's would.
 */

const EMPTY = -1;
const GONE = -2;

/** FNV-1a over the UTF-16 code units. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class DocTable {
  table = new Int32Array(1024).fill(EMPTY);
  size = 0;
  /** Entries deleted (GONE), counted for a rehash. */
  private gone = 0;

  constructor(private readonly keyOf: (d: number) => string | null | undefined) {}

  /** The slot holding the key, or the first free slot of its probe (with found: false). */
  private slot(key: string): { at: number; found: boolean } {
    const mask = this.table.length - 1;
    let free = -1;
    for (let at = hash(key) & mask; ; at = (at + 1) & mask) {
      const d = this.table[at]!;
      if (d === EMPTY) return { at: free >= 0 ? free : at, found: false };
      if (d === GONE) {
        if (free < 0) free = at;
      } else if (this.keyOf(d) === key) return { at, found: true };
    }
  }

  get(key: string): number | undefined {
    const { at, found } = this.slot(key);
    return found ? this.table[at] : undefined;
  }

  /** Points the key to document d (a document with the key before leaves the table). */
  set(key: string, d: number): void {
    // rehashed past 3/4 full, to half full: a million entries take 8 to 16 MB
    if ((this.size + this.gone + 1) * 4 > this.table.length * 3) this.rehash();
    const { at, found } = this.slot(key);
    if (!found) {
      if (this.table[at] === GONE) this.gone--;
      this.size++;
    }
    this.table[at] = d;
  }

  /** Removes the key's entry when it points to document d. */
  deleteDoc(key: string, d: number): void {
    const { at, found } = this.slot(key);
    if (!found || this.table[at] !== d) return;
    this.table[at] = GONE;
    this.size--;
    this.gone++;
  }

  *values(): IterableIterator<number> {
    for (const d of this.table) if (d >= 0) yield d;
  }

  private rehash() {
    const old = this.table;
    let n = old.length;
    while ((this.size + 1) * 2 > n) n *= 2;
    this.table = new Int32Array(n).fill(EMPTY);
    this.gone = 0;
    const mask = n - 1;
    for (const d of old) {
      if (d < 0) continue;
      let at = hash(this.keyOf(d)!) & mask;
      while (this.table[at] !== EMPTY) at = (at + 1) & mask;
      this.table[at] = d;
    }
  }

  bytes(): number {
    return this.table.byteLength;
  }
}
