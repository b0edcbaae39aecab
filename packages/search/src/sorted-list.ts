/*
 * A sorted list of document numbers under a total order given by a comparator, kept as a list
 * of blocks of at most 2 × BLOCK entries (the layout of Python's sortedcontainers): insert and
 * remove cost a binary search and a splice of one block, O(log n + BLOCK); a walk from any
 * position costs what it reads. The comparator reads the documents' current keys, so a
 * document is removed before its keys change and inserted again after.
 */

const BLOCK = 512;

/** A position in the list: block and offset. */
export interface Position {
  block: number;
  offset: number;
}

export class SortedList {
  private blocks: number[][] = [];
  private count = 0;

  constructor(private readonly cmp: (a: number, b: number) => number) {}

  get length(): number {
    return this.count;
  }

  /** Replaces the content (sorted once: cheaper than inserting one by one). */
  reset(items: number[]): void {
    items.sort(this.cmp);
    this.blocks = [];
    for (let i = 0; i < items.length; i += BLOCK) this.blocks.push(items.slice(i, i + BLOCK));
    this.count = items.length;
  }

  /** The first block whose last element is not before x (the last block when there is none). */
  private blockOf(x: number): number {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = blocks[mid]!;
      if (this.cmp(b[b.length - 1]!, x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(x: number): void {
    if (this.blocks.length === 0) {
      this.blocks.push([x]);
      this.count = 1;
      return;
    }
    const at = this.blockOf(x);
    const b = this.blocks[at]!;
    const lo = this.placeIn(b, x);
    b.splice(lo, 0, x);
    this.count++;
    if (b.length > 2 * BLOCK) this.blocks.splice(at + 1, 0, b.splice(BLOCK));
  }

  /** The first place in block b whose item does not sort before x. */
  private placeIn(b: readonly number[], x: number): number {
    let lo = 0;
    let hi = b.length;
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
    const lo = this.placeIn(b, x);
    if (b[lo] !== x) return false;
    b.splice(lo, 1);
    this.count--;
    if (b.length === 0) this.blocks.splice(at, 1);
    return true;
  }

  /** The first position whose element is not `before` (before: true for a prefix of the list). */
  seek(before: (x: number) => boolean): Position {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = blocks[mid]!;
      if (before(b[b.length - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === blocks.length) return { block: lo, offset: 0 };
    const b = blocks[lo]!;
    let l = 0;
    let h = b.length;
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
      for (let i = offset; i < b.length; i++) if (!visit(b[i]!)) return;
    }
  }

  /** Calls visit on each element from `from` up to (not including) `to`. */
  between(from: Position, to: Position, visit: (x: number) => void): void {
    const blocks = this.blocks;
    let offset = from.offset;
    for (let bi = from.block; bi < blocks.length && bi <= to.block; bi++, offset = 0) {
      const b = blocks[bi]!;
      const end = bi === to.block ? to.offset : b.length;
      for (let i = offset; i < end; i++) visit(b[i]!);
    }
  }

  /** Calls visit on each element before `from`, last first, until it returns false. */
  backward(from: Position, visit: (x: number) => boolean): void {
    const blocks = this.blocks;
    let bi = from.block;
    let i = from.offset - 1;
    if (bi >= blocks.length) {
      bi = blocks.length - 1;
      i = (blocks[bi]?.length ?? 0) - 1;
    }
    for (; bi >= 0; bi--) {
      const b = blocks[bi]!;
      if (i >= b.length) i = b.length - 1;
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
      const b = blocks[hi]!;
      probes++;
      if (!inside(b[b.length - 1]!)) break;
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, blocks.length);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = blocks[mid]!;
      probes++;
      if (inside(b[b.length - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo !== p.block) {
      p.block = lo;
      p.offset = 0;
    }
    if (lo >= blocks.length) return probes;
    const b = blocks[lo]!;
    let l = p.offset;
    let h = b.length - 1; // the last element is not inside
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
    return this.blocks[p.block]?.[p.offset];
  }

  /** Moves a position to the next element. */
  step(p: Position): void {
    p.offset++;
    if (p.offset >= this.blocks[p.block]!.length) {
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

  /** Bytes held (estimate: 8 per entry, 64 per block). */
  bytes(): number {
    return this.count * 8 + this.blocks.length * 64;
  }
}
