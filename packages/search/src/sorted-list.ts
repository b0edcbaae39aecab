/*
 * A sorted list of document numbers under a total order given by a comparator, kept as a list
 * of blocks of at most 2 × BLOCK entries (the layout of Python's sortedcontainers): insert and
 * remove cost a binary search and a move within one block, O(log n + BLOCK); a walk from any
 * position costs what it reads. A block is a Uint32Array with room to grow and its length
 * apart (4 bytes an entry, read and written by a snapshot as bytes). The comparator reads the
 * documents' current keys, so a document is removed before its keys change and inserted again after.
 */

const BLOCK = 512;
/** A block's room when made by a reset: a quarter more than it holds. */
const ROOM = BLOCK + BLOCK / 4;

/** A position in the list: block and offset. */
export interface Position {
  block: number;
  offset: number;
}

export class SortedList {
  private blocks: Uint32Array[] = [];
  /** How many entries each block holds. */
  private sizes: number[] = [];
  private count = 0;

  constructor(private readonly cmp: (a: number, b: number) => number) {}

  get length(): number {
    return this.count;
  }

  /** Replaces the content (sorted once: cheaper than inserting one by one). */
  reset(items: number[]): void {
    items.sort(this.cmp);
    this.blocks = [];
    this.sizes = [];
    for (let i = 0; i < items.length; i += BLOCK) {
      const n = Math.min(BLOCK, items.length - i);
      const b = new Uint32Array(ROOM);
      for (let j = 0; j < n; j++) b[j] = items[i + j]!;
      this.blocks.push(b);
      this.sizes.push(n);
    }
    this.count = items.length;
  }

  /** The first block whose last element is not before x (the last block when there is none). */
  private blockOf(x: number): number {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cmp(blocks[mid]![this.sizes[mid]! - 1]!, x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(x: number): void {
    if (this.blocks.length === 0) {
      this.blocks.push(Uint32Array.of(x, 0, 0, 0));
      this.sizes.push(1);
      this.count = 1;
      return;
    }
    const at = this.blockOf(x);
    let b = this.blocks[at]!;
    const n = this.sizes[at]!;
    const lo = this.placeIn(b, n, x);
    if (n === b.length) {
      const grown = new Uint32Array(Math.min(2 * BLOCK + 1, 2 * n));
      grown.set(b);
      this.blocks[at] = b = grown;
    }
    b.copyWithin(lo + 1, lo, n);
    b[lo] = x;
    this.sizes[at] = n + 1;
    this.count++;
    if (n + 1 > 2 * BLOCK) {
      const right = new Uint32Array(ROOM);
      right.set(b.subarray(BLOCK, n + 1));
      this.blocks.splice(at + 1, 0, right);
      this.sizes.splice(at + 1, 0, n + 1 - BLOCK);
      this.sizes[at] = BLOCK;
    }
  }

  /** The first place in block b whose item does not sort before x. */
  private placeIn(b: Uint32Array, n: number, x: number): number {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cmp(b[mid]!, x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Removes x, which must sit where its current keys place it; false when it is not there. */
  remove(x: number): boolean {
    if (this.blocks.length === 0) return false;
    const at = this.blockOf(x);
    const b = this.blocks[at]!;
    const n = this.sizes[at]!;
    const lo = this.placeIn(b, n, x);
    if (lo >= n || b[lo] !== x) return false;
    b.copyWithin(lo, lo + 1, n);
    this.sizes[at] = n - 1;
    this.count--;
    if (n === 1) {
      this.blocks.splice(at, 1);
      this.sizes.splice(at, 1);
    }
    return true;
  }

  /** The first position whose element is not `before` (before: true for a prefix of the list). */
  seek(before: (x: number) => boolean): Position {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(blocks[mid]![this.sizes[mid]! - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === blocks.length) return { block: lo, offset: 0 };
    const b = blocks[lo]!;
    let l = 0;
    let h = this.sizes[lo]!;
    while (l < h) {
      const mid = (l + h) >> 1;
      if (before(b[mid]!)) l = mid + 1;
      else h = mid;
    }
    return { block: lo, offset: l };
  }

  /** Calls visit on each element from `from` on, in order, until it returns false. */
  forward(from: Position, visit: (x: number) => boolean): void {
    const blocks = this.blocks;
    let offset = from.offset;
    for (let bi = from.block; bi < blocks.length; bi++, offset = 0) {
      const b = blocks[bi]!;
      const n = this.sizes[bi]!;
      for (let i = offset; i < n; i++) if (!visit(b[i]!)) return;
    }
  }

  /** Calls visit on each element from `from` up to (not including) `to`. */
  between(from: Position, to: Position, visit: (x: number) => void): void {
    const blocks = this.blocks;
    let offset = from.offset;
    for (let bi = from.block; bi < blocks.length && bi <= to.block; bi++, offset = 0) {
      const b = blocks[bi]!;
      const end = bi === to.block ? to.offset : this.sizes[bi]!;
      for (let i = offset; i < end; i++) visit(b[i]!);
    }
  }

  /**
   * The first `want` elements from `from` on, in order, that are in a set of documents (a
   * bitmap's words) and pass `ok` (when given) — `forward` with the membership test inlined:
   * a walk of a ranked order through a bucket reads many entries for each it keeps.
   */
  forwardIn(
    from: Position,
    words: Uint32Array,
    want: number,
    out: number[],
    ok?: (x: number) => boolean,
  ): void {
    const blocks = this.blocks;
    let offset = from.offset;
    for (let bi = from.block; bi < blocks.length; bi++, offset = 0) {
      const b = blocks[bi]!;
      const n = this.sizes[bi]!;
      for (let i = offset; i < n; i++) {
        const x = b[i]!;
        if (((words[x >>> 5]! >>> (x & 31)) & 1) === 0 || (ok !== undefined && !ok(x))) continue;
        out.push(x);
        if (out.length >= want) return;
      }
    }
  }

  /** Calls visit on each element before `from`, last first, until it returns false. */
  backward(from: Position, visit: (x: number) => boolean): void {
    const blocks = this.blocks;
    let bi = from.block;
    let i = from.offset - 1;
    if (bi >= blocks.length) {
      bi = blocks.length - 1;
      i = (this.sizes[bi] ?? 0) - 1;
    }
    for (; bi >= 0; bi--) {
      const b = blocks[bi]!;
      if (i >= this.sizes[bi]!) i = this.sizes[bi]! - 1;
      for (; i >= 0; i--) if (!visit(b[i]!)) return;
      i = Number.MAX_SAFE_INTEGER;
    }
  }

  /**
   * Moves a position past the run of elements, from it on, for which `inside` holds (a prefix
   * of the rest of the list): galloping over blocks by their last element, then within the
   * block, so that a short run costs a few probes. Returns the probes made.
   */
  skip(p: Position, inside: (x: number) => boolean): number {
    const blocks = this.blocks;
    let probes = 0;
    // blocks wholly inside: gallop, then binary search, on their last elements
    let lo = p.block;
    if (lo >= blocks.length) return 0;
    let step = 1;
    let hi = lo;
    while (hi < blocks.length) {
      probes++;
      if (!inside(blocks[hi]![this.sizes[hi]! - 1]!)) break;
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, blocks.length);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      probes++;
      if (inside(blocks[mid]![this.sizes[mid]! - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo !== p.block) {
      p.block = lo;
      p.offset = 0;
    }
    if (lo >= blocks.length) return probes;
    const b = blocks[lo]!;
    let l = p.offset;
    let h = this.sizes[lo]! - 1; // the last element is not inside
    let s = 1;
    while (l + s < h) {
      probes++;
      if (!inside(b[l + s]!)) {
        h = l + s;
        break;
      }
      l += s;
      s *= 2;
    }
    while (l < h) {
      const mid = (l + h) >> 1;
      probes++;
      if (inside(b[mid]!)) l = mid + 1;
      else h = mid;
    }
    p.offset = l;
    return probes;
  }

  /** The element at a position (undefined past the end). */
  at(p: Position): number | undefined {
    return p.block < this.blocks.length && p.offset < this.sizes[p.block]!
      ? this.blocks[p.block]![p.offset]
      : undefined;
  }

  /** Moves a position to the next element. */
  step(p: Position): void {
    p.offset++;
    if (p.offset >= this.sizes[p.block]!) {
      p.block++;
      p.offset = 0;
    }
  }

  /** The first and last position (for walks over everything). */
  start(): Position {
    return { block: 0, offset: 0 };
  }

  end(): Position {
    return { block: this.blocks.length, offset: 0 };
  }

  /** Bytes held (the blocks' room, and 96 a block). */
  bytes(): number {
    let b = 0;
    for (const block of this.blocks) b += block.byteLength + 96;
    return b;
  }
}
