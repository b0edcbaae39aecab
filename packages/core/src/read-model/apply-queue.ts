import type { Database, IndexedProjectRow, IndexedTagRow, Kysely } from '@directory/db';

/**
 * What is to be applied for one project: `version` is the id of the newest change of it this
 * apply stands for (the feed's ids of one project's changes grow in commit order: a writer
 * takes the project's row lock before its change is numbered). With `row`, the project as its
 * own writer wrote it at exactly that version (this process's own write); without, the project
 * is re-read as it is now (at that version or later).
 */
export interface ApplyEntry {
  version: number;
  row?: IndexedProjectRow | undefined;
  /** With `row`: the xid of the transaction that wrote it. */
  xid?: bigint | undefined;
  /** Without `row`: where it is re-read (where its change was read; absent: the primary). */
  db?: Kysely<Database> | undefined;
}

/**
 * The apply queue: the projects to apply, one batch at a time so that a later apply always
 * wins; those that arrive while a batch is applied are applied together in the next (one
 * statement for many re-reads). Two entries of one project keep the newer (a row over a re-read
 * of the same version). Each caller's promise settles with the batch that took its entries.
 */
export class ApplyQueue {
  private pending = new Map<string, ApplyEntry>();
  private pendingTags: IndexedTagRow[] = [];
  private pendingTagIds = new Set<string>();
  private pendingDone: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private applying = false;
  /** Batches and exclusive sections, one after the other. */
  private lock: Promise<void> = Promise.resolve();

  constructor(
    private readonly applyNow: (
      entries: Map<string, ApplyEntry>,
      tags: IndexedTagRow[],
      tagIds: Set<string>,
    ) => Promise<void>,
  ) {}

  /** `tagIds`: tags to re-read (a tag.updated change: renamed or merged), after the projects. */
  add(
    entries: Iterable<[string, ApplyEntry]>,
    tags: IndexedTagRow[] = [],
    tagIds: string[] = [],
  ): Promise<void> {
    for (const [id, entry] of entries) {
      const old = this.pending.get(id);
      if (!old || entry.version > old.version || (entry.version === old.version && entry.row))
        this.pending.set(id, entry);
    }
    this.pendingTags.push(...tags);
    for (const id of tagIds) this.pendingTagIds.add(id);
    const done = new Promise<void>((resolve, reject) => this.pendingDone.push({ resolve, reject }));
    void this.pump();
    return done;
  }

  /**
   * Runs `fn` when no batch is being applied, and applies none until it has settled (a
   * snapshot of the model is written so: what it writes does not change under it).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.locked(fn);
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn);
    this.lock = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  private async pump() {
    if (this.applying) return;
    this.applying = true;
    try {
      while (this.pending.size > 0 || this.pendingTagIds.size > 0) {
        const entries = this.pending;
        const tags = this.pendingTags;
        const tagIds = this.pendingTagIds;
        const done = this.pendingDone;
        this.pending = new Map();
        this.pendingTags = [];
        this.pendingTagIds = new Set();
        this.pendingDone = [];
        try {
          await this.locked(() => this.applyNow(entries, tags, tagIds));
          for (const d of done) d.resolve();
        } catch (err) {
          for (const d of done) d.reject(err);
        }
      }
    } finally {
      this.applying = false;
    }
  }
}
