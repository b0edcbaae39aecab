import {
  type Database,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  type ReadRouting,
  readIndexedProjects,
  readIndexedTags,
  visibleIn,
} from '@directory/db';
import type { RequestWrites } from '../transaction.ts';
import { type ApplyEntry, ApplyQueue } from './apply-queue.ts';
import { applyCuratedTags, applyRows, applyWrittenRows } from './contents.ts';
import type { Held } from './held.ts';
import { nextPass } from './turns.ts';

/*
 * How the read model follows what is written (docs/search.md#how-it-is-served-a-read-model-in-every-process),
 * project by project:
 *
 * - Apply (apply-queue.ts, contents.ts): a change names a project; the model re-reads it by id
 *   as it is now (gone: removed) and puts it into the index. Applies run one at a time, so a
 *   later read always wins, and the ids waiting meanwhile are read together.
 * - Versions: the feed's ids of one project's changes grow in commit order (a writer holds the
 *   project's row lock when its change is numbered), so the model keeps, per project, the
 *   newest change id it has applied (`held.versions`: a re-read applies at least the change
 *   that asked for it). A change at or below that version is skipped: it is already in the
 *   index. An entry is forgotten once the feed's horizon has passed every change it could skip
 *   (versions.ts), and an own write's row below the horizon is not applied (the follower
 *   re-read its project already), so the map holds what the last reads of the feed applied.
 * - Own writes: after a write commits, the process applies it before it answers, without
 *   reading the feed or the projects: the request's record of its writes (transaction.ts
 *   RequestWrites, handed over by trpc.ts) holds the transactions' changes (ids and projects)
 *   and an upsert's projects as it wrote them, put in at their change's version. A project an
 *   own write names without its row (a delete, a merge) is re-read. The feed brings the same
 *   changes later; their versions are already applied.
 */
export class Applier {
  private readonly queue: ApplyQueue;

  constructor(
    private readonly held: Held,
    /** The primary: re-reads of own writes, and of tags and synonyms. */
    readonly db: Kysely<Database>,
    private readonly reads: ReadRouting,
  ) {
    this.queue = new ApplyQueue((entries, tags, tagIds) => this.applyNow(entries, tags, tagIds));
  }

  /** Runs `fn` while no apply runs (a snapshot being written). */
  exclusive(fn: () => Promise<void>): Promise<void> {
    return this.queue.exclusive(fn);
  }

  /**
   * Re-reads these projects as they are now and puts them into the index (one at a time,
   * batched), each unless the model already has its version (by id: the change that asks).
   */
  apply(versions: Map<string, number>, db: Kysely<Database> = this.db, tagIds: string[] = []): Promise<void> {
    const entries: [string, ApplyEntry][] = [];
    for (const [id, version] of versions)
      if (!this.held.versions.has(id, version)) entries.push([id, { version, db }]);
    return entries.length > 0 || tagIds.length > 0 ? this.queue.add(entries, [], tagIds) : Promise.resolve();
  }

  /**
   * Applies this process's own committed writes (the request's record, see transaction.ts), so
   * that its answer to the write and every read after it see them: an upsert's projects from
   * the rows it wrote, any other project a change names re-read. A transaction the last build's
   * snapshot saw is in the model already. Failures are the feed's to repair. `built`: whether
   * the model has contents yet (else only the routing of reads learns of the writes).
   */
  async applyOwn(
    writes: Pick<RequestWrites, 'xids' | 'changes' | 'projects' | 'tags' | 'tagIds' | 'beyondProjects'>,
    built: boolean,
  ): Promise<void> {
    if (writes.xids.length === 0) return;
    // reads of what it wrote go to the primary until the standby shows it (a transaction that
    // wrote no project, as the queue's, changes nothing a standby serves)
    const written: string[] = [];
    for (const c of writes.changes) for (const id of [c.projectId, c.intoProjectId]) if (id) written.push(id);
    // a tag renamed or merged shows in every project that has it: every read, until then
    if (writes.tagIds.length > 0) this.reads.wrote(writes.xids, 'all');
    else if (written.length > 0 || writes.beyondProjects) this.reads.wrote(writes.xids, written);
    if (!built) return;
    const seen = this.held.builtFrom;
    const fresh = seen ? writes.xids.filter((x) => !visibleIn(seen, BigInt(x))) : writes.xids;
    if (fresh.length > 0) {
      // rows only when the build saw none of the request's transactions (else: re-read them)
      const useRows = fresh.length === writes.xids.length;
      const versions = new Map<string, { version: number; xid: bigint }>();
      for (const c of writes.changes)
        for (const id of [c.projectId, c.intoProjectId])
          if (id && !((versions.get(id)?.version ?? -1) >= c.id))
            versions.set(id, { version: c.id, xid: BigInt(c.xid) });
      const rows = new Map(useRows ? writes.projects.map((p) => [p.id, p]) : []);
      const entries: [string, ApplyEntry][] = [];
      for (const [id, { version, xid }] of versions)
        if (!this.held.versions.has(id, version)) entries.push([id, { version, row: rows.get(id), xid }]);
      if (entries.length > 0 || writes.tagIds.length > 0)
        await this.queue.add(entries, writes.tags, writes.tagIds);
    }
    this.held.freshness.markOwn(writes.xids);
  }

  /** One batch of the queue: its re-reads in one statement, then every change into the contents. */
  private async applyNow(entries: Map<string, ApplyEntry>, tags: IndexedTagRow[], tagIds: Set<string>) {
    const held = this.held;
    const rows: IndexedProjectRow[] = [];
    const reread: string[] = [];
    // re-read where their changes were read, or on the primary when they were read in several
    const from = new Set<Kysely<Database>>();
    for (const [id, entry] of entries) {
      if (held.versions.has(id, entry.version)) continue;
      // an own write's row of a transaction below the horizon: the follower has re-read its
      // project since (at least as new), and may have forgotten its version (versions.ts)
      if (entry.row && entry.xid !== undefined && entry.xid < held.freshness.horizon) continue;
      if (entry.row) rows.push(entry.row);
      else {
        reread.push(id);
        from.add(entry.db ?? this.db);
      }
    }
    const db = from.size === 1 ? [...from][0]! : this.db;
    const read = reread.length > 0 ? await readIndexedProjects(db, reread) : undefined;
    // renamed or merged tags: read on the primary (at least as new as any change that named them)
    const curated = tagIds.size > 0 ? await readIndexedTags(this.db, [...tagIds]) : undefined;
    // in slices, with turns for the reads between them (inSlices)
    const applied = (ids: string[]) => {
      for (const id of ids) held.versions.set(id, entries.get(id)!.version);
      held.applied += ids.length;
      held.version++;
    };
    if (read) {
      const byId = new Map(read.projects.map((p) => [p.id, p]));
      await inSlices(reread, (ids, first) => {
        const projects = ids.flatMap((id) => byId.get(id) ?? []);
        applyRows(held, held.details, ids, projects, first ? read.tags : []);
        applied(ids);
      });
    }
    // only the tags of the rows put: a skipped row's tag may have been merged away since (its
    // alias is not put back)
    const tagsOfRows = new Set(rows.flatMap((r) => r.tagIds));
    const rowTags = tags.filter((t) => tagsOfRows.has(t.id));
    await inSlices(rows, (slice, first) => {
      applyWrittenRows(held, held.details, slice, first ? rowTags : []);
      applied(slice.map((r) => r.id));
    });
    if (curated) applyCuratedTags(held, held.details, curated);
    held.version++;
  }
}

/**
 * An apply puts its projects STEP at a time, and gives the reads their turns (turns.ts) once
 * BUDGET_MS is spent: a replace costs 50–500 µs, and a tag merge's 10,000 put at once held every
 * search for half a second (bench/RESULTS.md as of commit 523d715, "Tag merge").
 */
const STEP = 50;
const BUDGET_MS = 8;

async function inSlices<T>(items: T[], put: (slice: T[], first: boolean) => void): Promise<void> {
  let since = performance.now();
  for (let i = 0; i < items.length; i += STEP) {
    if (i > 0 && performance.now() - since >= BUDGET_MS) {
      await nextPass();
      since = performance.now();
    }
    put(items.slice(i, i + STEP), i === 0);
  }
}
