import { describe, expect, it } from 'vitest';
import { shrunk, VIEW_BYTES } from './shrunk.ts';

describe('shrunk', () => {
  it('copies a small array: the copy owns a buffer of just its elements', () => {
    const a = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const s = shrunk(a, 3);
    expect([...s]).toEqual([1, 2, 3]);
    expect(s.buffer).not.toBe(a.buffer);
    expect(s.buffer.byteLength).toBe(12);
  });

  it('narrows a large array to a view of its used part, without a copy', () => {
    const a = new Uint8Array(VIEW_BYTES);
    a.set([9, 8, 7]);
    const s = shrunk(a, 3);
    expect([...s]).toEqual([9, 8, 7]);
    expect(s.buffer).toBe(a.buffer);
    expect(s.byteLength).toBe(3);
  });
});
