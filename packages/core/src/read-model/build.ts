import {
  type Database,
  type Kysely,
  readPins,
  readPinsVersion,
  readSynonyms,
  readSynonymsVersion,
} from '@directory/db';
import { buildContents } from './contents.ts';
import type { FeedFollower } from './follow.ts';
import type { Held } from './held.ts';
import type { Snapshots } from './snapshots.ts';

/*
 * How the read model gets its contents whole (docs/search.md#how-it-is-served-a-read-model-in-every-process):
 * built from one REPEATABLE READ snapshot of the database (contents.ts), or loaded from its
 * snapshot on local disk (snapshots.ts, docs/search.md#restarts-the-models-snapshot) and
 * brought up to date by the feed. Either way the follower then reads the feed from where the
 * contents are (follow.ts). And the synonyms and the pins (curated results), which are read
 * whole too; the pins are not in the snapshot, so that a new index reads them at once.
 */

const SYNONYMS_CHECK_MS = 500;

/**
 * Builds the contents from the database: every tag and project of one snapshot; the feed is
 * then read from the snapshot's xmin on (a change whose transaction it saw is skipped). The new
 * contents take the old ones' place while no apply runs (`exclusive`: an apply puts its
 * projects in slices, and the rest of one begun on the old contents must not land in the new).
 */
export async function buildFromDatabase(
  held: Held,
  db: Kysely<Database>,
  follower: FeedFollower,
  exclusive: (fn: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const built = await buildContents(db);
  await exclusive(async () => {
    held.replace(built, built.synonyms.version, built.snapshot, built.snapshot.xmin);
    held.synonymsCheckedAt = Date.now();
    follower.startAt(built.snapshot);
  });
  await checkPins(held, db, true);
}

/**
 * Loads the snapshot on disk, when there is one the model may use, and follows the feed from
 * its horizon until caught up. Answers whether the model is ready from it: false when there
 * was none, when the model stopped, or when the follower built afresh meanwhile (the feed no
 * longer reached back to the snapshot's horizon: `builtMeanwhile`).
 */
export async function restoreFromSnapshot(
  held: Held,
  snapshots: Snapshots,
  follower: FeedFollower,
  done: { stopped: () => boolean; builtMeanwhile: () => boolean },
): Promise<boolean> {
  const loaded = await snapshots.load();
  if (!loaded || done.stopped()) return false;
  const { state, header } = loaded;
  const horizon = BigInt(header.horizon);
  held.replace(
    { index: state.index, maxUpdated: header.maxUpdated },
    header.synonymsVersion,
    undefined,
    horizon,
  );
  held.synonymsCheckedAt = 0;
  held.pinsCheckedAt = 0;
  follower.startAt({ xmin: horizon, xmax: horizon, xip: [] });
  for (;;) {
    const wait = await follower.followOnce();
    if (done.builtMeanwhile() || wait > 0 || done.stopped()) break;
  }
  return !done.builtMeanwhile() && !done.stopped();
}

/** Whether synonyms version `a` (a counter, as text) is newer than `b` ('' or a counter). */
export const newerVersion = (a: string, b: string) => b === '' || BigInt(a) > BigInt(b);

/** Re-reads the synonyms when they changed (looked at every half second, or now: `force`). */
export async function checkSynonyms(held: Held, db: Kysely<Database>, force: boolean): Promise<void> {
  if (!force && Date.now() - held.synonymsCheckedAt < SYNONYMS_CHECK_MS) return;
  held.synonymsCheckedAt = Date.now();
  const version = await readSynonymsVersion(db);
  // never back: a standby behind the primary may still show the sets this process replaced
  if (version === held.synonymsVersion || !newerVersion(version, held.synonymsVersion)) return;
  const synonyms = await readSynonyms(db);
  held.index.setSynonyms(synonyms.sets);
  held.synonymsVersion = synonyms.version;
  held.version++;
}

/**
 * Re-reads the pins (docs/search.md#curated-results-pins) when they changed, as checkSynonyms does
 * the synonyms; a new index (held.replace) has none and reads them at its first look.
 */
export async function checkPins(held: Held, db: Kysely<Database>, force: boolean): Promise<void> {
  if (!force && Date.now() - held.pinsCheckedAt < SYNONYMS_CHECK_MS) return;
  held.pinsCheckedAt = Date.now();
  const version = await readPinsVersion(db);
  if (version === held.pinsVersion || !newerVersion(version, held.pinsVersion)) return;
  const pins = await readPins(db);
  held.index.setPins(pins.pins);
  held.pinsVersion = pins.version;
  held.version++;
}
