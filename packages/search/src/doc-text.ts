import { shrunk } from './shrunk.ts';
import type { IndexedProject, LinkType } from './types.ts';

/*
 * Each document's own text (its id, the texts a query's match field and CJK check read, its
 * link types and the owners its links name: owners.ts), all in one byte array as UTF-8, one record per document: a million
 * projects are then one array, not a million objects with a dozen strings and arrays each
 * (docs/search.md, "Restarts: the model's snapshot": the snapshot writes it as it is). A
 * field is read back by decoding its bytes. A record ends each field with 0xFF and writes an
 * absent one as 0xFE: neither byte occurs in UTF-8. A document written again goes to the end;
 * the space left behind is reclaimed when it is half of the array.
 */

/** The fields of a record, in order; the owners' names follow, one field each. */
export const TEXT_FIELDS = [
  'id',
  'name',
  'nameEn',
  'slug',
  'description',
  'descriptionEn',
  'linkTypes',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

const END = 0xff;
const ABSENT = 0xfe;
/** Link types as one character each in the linkTypes field. */
const LINK_CODES: Record<LinkType, string> = { WEBSITE: 'W', CODEHOST: 'C', MODELHUB: 'M', PAPER: 'P' };
const LINK_OF: Record<string, LinkType> = { W: 'WEBSITE', C: 'CODEHOST', M: 'MODELHUB', P: 'PAPER' };

/** What a record holds (the rest of a project is in the store's typed arrays). */
export type DocFields = Pick<IndexedProject, TextField> & {
  /** The owners its links name (ownersOf: distinct, in the links' order), by name. */
  owners: string[];
};

export class DocText {
  slab = new Uint8Array(1 << 16);
  at = new Float64Array(1024);
  len = new Uint32Array(1024);
  used = 0;
  garbage = 0;
  /** A Buffer over slab (decoding); a private field, so never part of the state written. */
  #view: Buffer | undefined;

  private view(): Buffer {
    if (!this.#view || this.#view.buffer !== this.slab.buffer)
      this.#view = Buffer.from(this.slab.buffer, this.slab.byteOffset, this.slab.byteLength);
    return this.#view;
  }

  /** Writes a document's record (replacing the one it had). */
  set(d: number, p: DocFields): void {
    const parts: (string | null)[] = [p.id, p.name, p.nameEn, p.slug, p.description, p.descriptionEn];
    parts.push(p.linkTypes.map((t) => LINK_CODES[t]).join(''));
    for (const name of p.owners) parts.push(name);
    let n = 0;
    for (const s of parts) n += (s === null ? 1 : Buffer.byteLength(s, 'utf8')) + 1;
    this.fit(d);
    this.delete(d);
    if (this.used + n > this.slab.length) this.grow(n);
    const view = this.view();
    let at = this.used;
    this.at[d] = at;
    this.len[d] = n;
    for (const s of parts) {
      if (s === null) view[at++] = ABSENT;
      else at += view.write(s, at, 'utf8');
      view[at++] = END;
    }
    this.used = at;
  }

  /** Forgets a document's record. */
  delete(d: number): void {
    if (d >= this.len.length) return;
    this.garbage += this.len[d]!;
    this.len[d] = 0;
  }

  has(d: number): boolean {
    return d < this.len.length && this.len[d]! > 0;
  }

  /** One field of a document's record (null when absent; undefined when the document has none). */
  field(d: number, field: TextField): string | null | undefined {
    if (!this.has(d)) return undefined;
    const view = this.view();
    let from = this.at[d]!;
    for (let i = TEXT_FIELDS.indexOf(field); i > 0; i--) from = view.indexOf(END, from) + 1;
    return decode(view, from, view.indexOf(END, from));
  }

  /** Every field of a document's record, or undefined. */
  fields(d: number): DocFields | undefined {
    if (!this.has(d)) return undefined;
    const view = this.view();
    const end = this.at[d]! + this.len[d]!;
    const values: (string | null)[] = [];
    for (let from = this.at[d]!; from < end; ) {
      const to = view.indexOf(END, from);
      values.push(decode(view, from, to));
      from = to + 1;
    }
    const [id, name, nameEn, slug, description, descriptionEn, types, ...owners] = values;
    return {
      id: id!,
      name: name!,
      nameEn: nameEn ?? null,
      slug: slug!,
      description: description!,
      descriptionEn: descriptionEn ?? null,
      linkTypes: [...(types ?? '')].map((c) => LINK_OF[c]!),
      owners: owners as string[],
    };
  }

  private fit(d: number) {
    if (d < this.at.length) return;
    let n = this.at.length;
    while (n <= d) n *= 2;
    const at = new Float64Array(n);
    at.set(this.at);
    this.at = at;
    const len = new Uint32Array(n);
    len.set(this.len);
    this.len = len;
  }

  private grow(need: number) {
    const live = this.used - this.garbage;
    const size = Math.max(this.slab.length * (this.garbage > this.used / 2 ? 1 : 2), (live + need) * 2);
    const slab = new Uint8Array(size);
    if (this.garbage > this.used / 2) {
      // compact: every document's record again, without the gaps
      let used = 0;
      for (let d = 0; d < this.len.length; d++) {
        const n = this.len[d]!;
        if (n === 0) continue;
        slab.set(this.slab.subarray(this.at[d]!, this.at[d]! + n), used);
        this.at[d] = used;
        used += n;
      }
      this.used = used;
      this.garbage = 0;
    } else slab.set(this.slab.subarray(0, this.used));
    this.slab = slab;
    this.#view = undefined;
  }

  /** Gives back the slab's room beyond a 32nd more than it holds (a build ends with it). */
  trim(): void {
    if (this.slab.length - this.used <= this.used / 16) return;
    this.slab = shrunk(this.slab, this.used + (this.used >> 5));
    // the view over the old slab would keep it (the build's doublings) alive until the next read
    this.#view = undefined;
  }

  bytes(): number {
    return this.slab.byteLength + this.at.byteLength + this.len.byteLength;
  }
}

function decode(view: Buffer, from: number, to: number): string | null {
  if (to === from + 1 && view[from] === ABSENT) return null;
  return view.toString('utf8', from, to);
}
