/*
 * How a build's arrays grown by doubling give their room back (DocText.trim, PostingLists.trim).
 * A copy of the part in use (slice) briefly holds both arrays, at the end of a build when the
 * process holds the most: at 1,000,000 projects the text alone is over 300 MB. An array this
 * large was mapped fresh by the allocator (far above glibc's largest mmap threshold, 32 MB), and
 * the room past its used part was never written, so none of it is resident: a view of the used
 * part (subarray) gives the room back as well, without the copy. A smaller array is copied.
 */

/** Arrays of at least this many bytes are narrowed to a view instead of copied. */
export const VIEW_BYTES = 64 * 2 ** 20;

/** `a`'s first `n` elements, as an array of their own (a copy), or as a view when `a` is large. */
export function shrunk<T extends Uint8Array | Uint32Array>(a: T, n: number): T {
  return (a.byteLength >= VIEW_BYTES ? a.subarray(0, n) : a.slice(0, n)) as T;
}
