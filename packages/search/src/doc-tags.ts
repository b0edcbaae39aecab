/*
 * Each document's tags (tag numbers, in the project's order), all in one Uint32Array with an
 * offset and a count per document: a facet pass reads them for tens of thousands of matches,
 * and one array per document would cost a cache miss each. A document whose tags grow is
 * written again at the end; the space left behind is reclaimed when it is half of the array.
 */
export class DocTags {
  slab = new Uint32Array(4096);
  at = new Uint32Array(1024);
  count = new Uint16Array(1024);
  private used = 0;
  private garbage = 0;

  /** The tags of a document (a copy). */
  get(d: number): number[] {
    if (d >= this.count.length) return [];
    const from = this.at[d]!;
    return Array.from(this.slab.subarray(from, from + this.count[d]!));
  }

  set(d: number, tags: number[]): void {
    if (d >= this.at.length) {
      let n = this.at.length;
      while (n <= d) n *= 2;
      const at = new Uint32Array(n);
      at.set(this.at);
      this.at = at;
      const count = new Uint16Array(n);
      count.set(this.count);
      this.count = count;
    }
    const old = this.count[d]!;
    if (tags.length > old) {
      if (this.used + tags.length > this.slab.length) this.grow(tags.length);
      this.garbage += old;
      this.at[d] = this.used;
      this.used += tags.length;
    } else this.garbage += old - tags.length;
    const from = this.at[d]!;
    for (let i = 0; i < tags.length; i++) this.slab[from + i] = tags[i]!;
    this.count[d] = tags.length;
  }

  private grow(need: number) {
    if (this.garbage > this.used / 2) {
      // compact: every document's tags again, without the gaps
      const slab = new Uint32Array(Math.max(this.slab.length, (this.used - this.garbage + need) * 2));
      let used = 0;
      for (let d = 0; d < this.count.length; d++) {
        const n = this.count[d]!;
        if (n === 0) continue;
        slab.set(this.slab.subarray(this.at[d]!, this.at[d]! + n), used);
        this.at[d] = used;
        used += n;
      }
      this.slab = slab;
      this.used = used;
      this.garbage = 0;
      if (this.used + need <= this.slab.length) return;
    }
    const slab = new Uint32Array(Math.max(this.slab.length * 2, this.used + need));
    slab.set(this.slab.subarray(0, this.used));
    this.slab = slab;
  }

  bytes(): number {
    return this.slab.byteLength + this.at.byteLength + this.count.byteLength;
  }
}
