import type { FeedAdvance } from '../changes/advance.ts';

/** A move that did not happen: the message says why; the target was left as it was. */
export class MoveRefused extends Error {}

export interface MovedTableReport {
  name: string;
  rows: number;
  /** SHA-256 of its rows in key order, as the source wrote them and the target read them back. */
  sha256: string;
}

export interface MoveReport {
  /** Every table copied, with its rows and the checksum both sides gave. */
  tables: MovedTableReport[];
  /** What the target's first start would have done to the feed's positions, done by the move. */
  feed: FeedAdvance;
  milliseconds: number;
}
