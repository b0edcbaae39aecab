import type { FeedPosition, SnapshotFacts } from '@directory/db';

/*
 * The change-feed position of an export's snapshot (docs/changes-and-webhooks.md#export-then-follow).
 *
 * The feed orders changes by (xid, id) and hands out only changes whose xid is below its own
 * read's xmin (changes/read.ts). A change the export's snapshot does not see was written by a
 * transaction that was running or not yet begun when the snapshot was taken: its xid is at or
 * above the snapshot's xmin. So when every change the snapshot sees has an xid below that xmin,
 * every change it sees orders before every change it does not, and the last one it sees is a
 * position that separates the two: a reader following the feed from it gets exactly what the
 * export does not hold. When a change it sees has an xid at or above xmin (a transaction that
 * began after an older one, still running, and committed before the snapshot), an unseen change
 * of that older one may order before it, and no one position separates them: take a new snapshot.
 */

export type ExportPosition = { kind: 'position'; at: FeedPosition } | { kind: 'retake' };

const before = (a: FeedPosition, b: FeedPosition) =>
  BigInt(a.xid) < BigInt(b.xid) || (a.xid === b.xid && BigInt(a.id) < BigInt(b.id));

/**
 * The export's cursor: the last change the snapshot sees, or the retention mark when it sees
 * none after it (the feed's start is the mark (0, 0)); both are positions the feed honours.
 */
export function exportPosition(facts: Pick<SnapshotFacts, 'xmin' | 'last' | 'retainedFrom'>): ExportPosition {
  const { last, retainedFrom } = facts;
  if (last !== undefined && BigInt(last.xid) >= BigInt(facts.xmin)) return { kind: 'retake' };
  return { kind: 'position', at: last !== undefined && before(retainedFrom, last) ? last : retainedFrom };
}
