/*
 * What a posting list is (postings.ts keeps them; postings-batch.ts appends a batch to them):
 * one document as a bare number, up to SMALL documents as a plain array, more as a Uint32Array
 * whose length is kept apart (lens).
 */

/** Lists up to this many documents are plain arrays. */
export const SMALL = 32;

export type List = number | number[] | Uint32Array;

/** The fields and the one-by-one insert a batch append works with (Postings implements it). */
export interface PostingLists {
  lists: (List | undefined)[];
  dense: (Uint32Array | undefined)[];
  lens: Uint32Array;
  add(term: number, doc: number): void;
}
