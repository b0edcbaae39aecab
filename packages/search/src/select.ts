/**
 * The first `want` of `n` items in `cmp` order among those passing `pass`, without sorting
 * them all: a bounded max-heap of the best so far (the worst on top, replaced when beaten).
 */
export function select(
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
