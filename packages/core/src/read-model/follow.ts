import {
  type Database,
  type FeedPosition,
  type Kysely,
  readChanges,
  type Snapshot,
  visibleIn,
} from '@directory/db';

const PAGE = 1000;
export const HELD_BACK_RETRY_MS = 20;
export const IDLE_WAIT_MS = 1000;

/** What following the feed does with what it reads (the read model). */
export interface FollowTarget {
  /**
   * Re-reads these projects and applies them: by id, the newest change of each read (its
   * version), and these tags (renamed or merged). `db` is where the changes were read: the
   * re-read must be at least as new.
   */
  apply(versions: Map<string, number>, db: Kysely<Database>, tagIds: string[]): Promise<void>;
  /**
   * A complete read of the feed up to this xmin (its changes applied): the horizon may move.
   * `xmax` is the read's snapshot's: every xid given out before the read is below it.
   */
  advance(xmin: bigint, xmax: bigint): void;
  /** The feed no longer holds what the model missed: build it again. */
  rebuild(): Promise<void>;
  /**
   * Looks whether the synonyms or the pins changed: at most every half second while the feed has
   * more to read, every time it has read all (`now`: a PUT's notification woke it, or the pause
   * ended), so that a change reaches every process within a second.
   */
  checkSynonyms(now: boolean): Promise<void>;
  /** The model is up to date with the feed. */
  upToDate(): void;
  warn(message: string, err: unknown): void;
}

/**
 * Where the model is in the change feed, and one step of following it: read a page of changes,
 * skip those of transactions the build's snapshot saw, apply the projects they name.
 */
export class FeedFollower {
  private position: FeedPosition = { xid: '0', id: '0' };
  private snapshot: Snapshot | undefined;

  constructor(
    /** Where the feed is read now (a standby, or the primary: docs/operating.md#standbys). */
    private readonly source: () => Kysely<Database>,
    private readonly target: FollowTarget,
  ) {}

  /** A new build: every change of a transaction from its xmin on is read; those it saw are skipped. */
  startAt(snapshot: Snapshot) {
    this.snapshot = snapshot;
    this.position =
      snapshot.xmin > 0n
        ? { xid: String(snapshot.xmin - 1n), id: '9223372036854775807' }
        : { xid: '0', id: '0' };
  }

  /** One read of the feed and its applies; returns how long to wait before the next (0: at once). */
  async followOnce(): Promise<number> {
    // Gap-free on a standby too: it replays the primary's commits in order, and its snapshot's
    // xmin holds back every transaction it has not seen end (docs/operating.md#standbys).
    // Moving between databases keeps the position: a change after it below the new source's
    // xmin has not been read, whichever was ahead.
    const db = this.source();
    const page = await readChanges(db, this.position, PAGE);
    if (page.expired) {
      // the model fell behind the feed's retention: what it missed is gone from the feed
      this.target.warn('the read model fell behind the change feed retention; rebuilding', undefined);
      await this.target.rebuild();
      return 0;
    }
    const versions = new Map<string, number>();
    const tagIds = new Set<string>();
    for (const c of page.changes) {
      if (this.snapshot && visibleIn(this.snapshot, BigInt(c.xid))) continue;
      if (c.tagId) tagIds.add(c.tagId);
      const version = Number(c.id);
      for (const id of [c.projectId, c.intoProjectId])
        if (id && !((versions.get(id) ?? -1) >= version)) versions.set(id, version);
    }
    if (versions.size > 0 || tagIds.size > 0) await this.target.apply(versions, db, [...tagIds]);
    const last = page.changes[page.changes.length - 1];
    if (last) this.position = { xid: last.xid, id: last.id };
    const full = page.changes.length === PAGE;
    if (!full) {
      const xmin = BigInt(page.xmin);
      // past the snapshot's xmax, no change left to read was seen by it
      if (this.snapshot && xmin > this.snapshot.xmax) this.snapshot = undefined;
      this.target.advance(xmin, BigInt(page.xmax));
    }
    await this.target.checkSynonyms(!full);
    if (full) return 0;
    if (page.heldBack) return HELD_BACK_RETRY_MS;
    this.target.upToDate();
    return IDLE_WAIT_MS;
  }
}
