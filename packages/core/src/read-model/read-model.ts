import {
  type Database,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  primaryOnly,
  type ReadRouting,
  readIndexedProjects,
  readIndexedTags,
  readSynonyms,
  readSynonymsVersion,
  type Snapshot,
  visibleIn,
} from '@directory/db';
import { SearchIndex } from '@directory/search';
import { type FeedServices, pollingFeed } from '../changes/feed.ts';
import { AppError } from '../errors.ts';
import type { RequestWrites } from '../transaction.ts';
import { type ApplyEntry, ApplyQueue } from './apply-queue.ts';
import { applyCuratedTags, applyRows, applyWrittenRows, buildContents } from './contents.ts';
import { DetailCache, type ProjectBody as Project } from './detail-cache.ts';
import { FeedFollower, IDLE_WAIT_MS } from './follow.ts';
import { decodePosition, encodePosition, Freshness } from './position.ts';
import { cachedProjects, loadProjects } from './project-pages.ts';
import { ModelState } from './snapshot-file.ts';
import { type SnapshotSettings, Snapshots } from './snapshots.ts';
import { Turns } from './turns.ts';
import { AppliedVersions } from './versions.ts';
import { pause, timer } from './waiting.ts';

/*
 * The read model (docs/search.md#how-it-is-served-a-read-model-in-every-process): what GET /api/projects,
 * GET /api/tags and GET /api/projects/{slug} need, held in memory by every server process and kept fresh
 * by the change feed. The database stays the one source of truth. This file puts the parts together:
 *
 * - Build (contents.ts): one REPEATABLE READ snapshot gives every tag and project, and the
 *   snapshot's bounds. The feed is then read from xmin on (follow.ts); a change whose
 *   transaction the snapshot already saw is skipped, every other one applied: no change is
 *   lost between the two, none applied twice.
 * - Apply (apply-queue.ts, contents.ts): a change names a project; the model re-reads it by id
 *   as it is now (gone: removed) and puts it into the index. Applies run one at a time, so a
 *   later read always wins, and the ids waiting meanwhile are read together.
 * - Versions: the feed's ids of one project's changes grow in commit order (a writer holds the
 *   project's row lock when its change is numbered), so the model keeps, per project, the
 *   newest change id it has applied (`versions`: a re-read applies at least the change that
 *   asked for it). A change at or below that version is skipped: it is already in the index.
 *   An entry is forgotten once the feed's horizon has passed every change it could skip
 *   (versions.ts), and an own write's row below the horizon is not applied (the follower
 *   re-read its project already), so the map holds what the last reads of the feed applied.
 * - Position (position.ts): the horizon, X-Directory-Position and `minPosition`.
 * - Own writes: after a write commits, the process applies it before it answers,
 *   without reading the feed or the projects: the transaction's changes (ids and projects) come
 *   with its commit (transaction.ts), and an upsert's projects come as it wrote them, put in at
 *   their change's version. A project an own write names without its row (a delete, a merge)
 *   is re-read. The feed brings the same changes later; their versions are already applied.
 * - Wake-ups (waiting.ts): the change feed's LISTEN signal (FeedServices); when an older
 *   transaction holds the feed back, it looks again every 20 ms.
 * - Pages (project-pages.ts): the projects of a page in the API's shape, through the detail
 *   cache (detail-cache.ts).
 * - Turns (turns.ts): a read's work (the search, the page's details, its answer) runs in turns
 *   of a few milliseconds (`read`), so that writes, applies and /healthz get the event loop
 *   between them however many clients read; only a detail-cache miss waits outside, on I/O.
 * - Snapshots (snapshots.ts): with a snapshot directory, the model starts from its snapshot on
 *   local disk when it may (then follows the feed from the snapshot's horizon, and answers
 *   once it has caught up), and writes one now and then and when it stops.
 */

export { encodePosition };

export interface ReadModelOptions {
  /** The primary. */
  db: Kysely<Database>;
  /** Where the model builds, follows and reads details (standbys); absent: `db`. */
  reads?: ReadRouting | undefined;
  feed?: FeedServices | undefined;
  /** The detail cache's budget (READ_CACHE_MB). */
  cacheBytes?: number;
  /** Warnings of the follower (a failed read: it retries). */
  warn?: (message: string, err: unknown) => void;
  /** Where and how often the model keeps its snapshot (READ_MODEL_SNAPSHOT_DIR); none: never. */
  snapshots?: SnapshotSettings | undefined;
}

export interface ReadModelStats {
  ready: boolean;
  projects: number;
  tags: number;
  indexBytes: number;
  cacheProjects: number;
  cacheBytes: number;
  buildSeconds: number;
  /** Where the model was made ready from: the database (a build) or its snapshot on disk. */
  readyFrom: 'database' | 'snapshot';
  /** The horizon as a number (the feed's xid), and the feed's newest xid seen. */
  position: number;
  /** Seconds since the model last knew it was up to date with the feed (0 when it is). */
  lagSeconds: number;
  applied: number;
  /** Projects whose applied change id is remembered (versions.ts). */
  versions: number;
}

const SYNONYMS_CHECK_MS = 500;
/** How often the follower of a standby looks at the feed when idle (docs/operating.md#standbys). */
const STANDBY_WAIT_MS = 50;

export const notReady = () =>
  new AppError('UNAVAILABLE', ['The search index is being built; retry after Retry-After seconds']);

export class ReadModel {
  index = new SearchIndex();
  readonly details: DetailCache;
  /** Bumped by every change of what the model answers (applies, builds, synonyms). */
  version = 0;
  private readonly db: Kysely<Database>;
  private readonly reads: ReadRouting;
  private readonly feed: FeedServices;
  private readonly warn: (message: string, err: unknown) => void;
  private maxUpdated = 0;
  private readonly freshness = new Freshness();
  private readonly follower: FeedFollower;
  private readonly queue: ApplyQueue;
  /** By project, the newest change id applied (see Versions above). */
  private versions = new AppliedVersions();
  /** The snapshot of the last build: an own write it saw is in the model already. */
  private builtFrom: Snapshot | undefined;
  private stopped = false;
  private built = false;
  private readonly readyWaiters: (() => void)[] = [];
  private buildSeconds = 0;
  private upToDateAt = Date.now();
  private applied = 0;
  private synonymsVersion = '';
  private synonymsCheckedAt = 0;
  private loop: Promise<void> | undefined;
  private wakeLoop: (() => void) | undefined;
  private readonly turns = new Turns();
  private readonly snapshots: Snapshots | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  /** `version` when the last snapshot was written (or loaded): an unchanged model is not written again. */
  private savedVersion = -1;
  /** How the model was made ready: built from the database, or loaded from a snapshot. */
  private readyFrom: 'database' | 'snapshot' = 'database';

  constructor(options: ReadModelOptions) {
    this.db = options.db;
    this.reads = options.reads ?? primaryOnly(options.db);
    this.feed = options.feed ?? pollingFeed;
    this.details = new DetailCache(options.cacheBytes ?? 256 * 1024 * 1024);
    this.warn = options.warn ?? (() => {});
    this.snapshots = options.snapshots && new Snapshots(options.snapshots, this.db);
    this.queue = new ApplyQueue((entries, tags, tagIds) => this.applyNow(entries, tags, tagIds));
    this.follower = new FeedFollower(() => this.reads.current().db, {
      apply: (versions, db, tagIds) => this.apply(versions, db, tagIds),
      advance: (xmin, xmax) => {
        this.freshness.advance(xmin);
        this.versions.passed(xmin, xmax);
      },
      rebuild: () => this.build(),
      checkSynonyms: () => this.checkSynonyms(),
      upToDate: () => {
        this.upToDateAt = Date.now();
      },
      warn: (message, err) => this.warn(message, err),
    });
  }

  get ready(): boolean {
    return this.built;
  }

  /** Builds the model, then follows the feed until stop(). Resolves once built. */
  start(): Promise<void> {
    if (!this.loop) this.loop = this.run();
    return this.whenReady();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.snapshotTimer);
    this.wakeLoop?.();
    this.freshness.wakeAll();
    await this.loop?.catch(() => {});
    await this.saveSnapshot();
  }

  /** Writes the model's snapshot now (when it has one to write, and changed since the last). */
  async saveSnapshot(): Promise<void> {
    if (!this.snapshots || !this.built || this.version === this.savedVersion) return;
    const version = this.version;
    await this.snapshots.save(
      (fn) => this.queue.exclusive(fn),
      () => ({
        state: new ModelState(this.index),
        horizon: this.freshness.horizon,
        synonymsVersion: this.synonymsVersion,
        maxUpdated: this.maxUpdated,
        projects: this.index.stats().projects,
      }),
    );
    this.savedVersion = version;
  }

  /**
   * Starts from the snapshot on disk, when there is one the model may use: its contents, the
   * feed followed from its horizon until caught up (a feed that no longer reaches back there
   * makes the follower build afresh). Only then is the model ready.
   */
  private async restore(): Promise<void> {
    if (!this.snapshots) return;
    const started = performance.now();
    try {
      const loaded = await this.snapshots.load();
      if (!loaded || this.stopped) return;
      const { state, header } = loaded;
      const horizon = BigInt(header.horizon);
      this.index = state.index;
      this.maxUpdated = header.maxUpdated;
      this.synonymsVersion = header.synonymsVersion;
      this.synonymsCheckedAt = 0;
      this.details.clear();
      this.versions = new AppliedVersions();
      this.builtFrom = undefined;
      this.follower.startAt({ xmin: horizon, xmax: horizon, xip: [] });
      this.freshness.reset(horizon);
      this.version++;
      for (;;) {
        const wait = await this.follower.followOnce();
        // the follower may have built afresh (the feed no longer held the snapshot's horizon)
        if (this.built || wait > 0 || this.stopped) break;
      }
      if (this.built || this.stopped) return;
      this.savedVersion = this.version;
      this.readyFrom = 'snapshot';
      this.becomeReady(started);
    } catch (err) {
      this.warn('cannot start from the read model snapshot; building from the database', err);
    }
  }

  private becomeReady(started: number) {
    this.buildSeconds = (performance.now() - started) / 1000;
    this.built = true;
    this.upToDateAt = Date.now();
    for (const wake of this.readyWaiters.splice(0)) wake();
    const every = this.snapshots?.intervalMs ?? 0;
    if (every > 0 && !this.snapshotTimer) {
      this.snapshotTimer = setInterval(() => void this.saveSnapshot(), every);
      this.snapshotTimer.unref();
    }
  }

  private whenReady(): Promise<void> {
    if (this.built) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    await this.restore();
    while (!this.stopped && !this.built && !this.feed.stopping) {
      try {
        await this.build();
      } catch (err) {
        this.warn('cannot build the read model; trying again', err);
        await this.sleep(1000);
      }
    }
    // the feed stopping (the server shutting down) stops the follower too
    while (!this.stopped && !this.feed.stopping) {
      const since = this.feed.version;
      try {
        const wait = await this.follower.followOnce();
        // A standby shows a change some time after its notification: look again soon.
        if (wait > 0)
          await this.waitForChange(
            this.reads.current().standby ? Math.min(wait, STANDBY_WAIT_MS) : wait,
            since,
          );
      } catch (err) {
        if (this.stopped) break;
        this.warn('cannot follow the change feed; trying again', err);
        await this.sleep(500);
      }
    }
  }

  private async build(): Promise<void> {
    const started = performance.now();
    const built = await buildContents(this.reads.current().db);
    this.index = built.index;
    this.version++;
    this.maxUpdated = built.maxUpdated;
    this.synonymsVersion = built.synonyms.version;
    this.synonymsCheckedAt = Date.now();
    this.details.clear();
    this.versions = new AppliedVersions();
    this.builtFrom = built.snapshot;
    this.follower.startAt(built.snapshot);
    this.freshness.reset(built.snapshot.xmin);
    this.readyFrom = 'database';
    this.becomeReady(started);
  }

  private async checkSynonyms(force = false) {
    if (!force && Date.now() - this.synonymsCheckedAt < SYNONYMS_CHECK_MS) return;
    this.synonymsCheckedAt = Date.now();
    const db = this.reads.current().db;
    const version = await readSynonymsVersion(db);
    if (version === this.synonymsVersion) return;
    const synonyms = await readSynonyms(db);
    this.index.setSynonyms(synonyms.sets);
    this.synonymsVersion = synonyms.version;
    this.version++;
  }

  /** Re-reads the synonyms now (a PUT of them in this process). */
  async refreshSynonyms(): Promise<void> {
    await this.checkSynonyms(true);
  }

  // ————————————————————————————————————————— applying

  /**
   * Re-reads these projects as they are now and puts them into the index (one at a time,
   * batched), each unless the model already has its version (by id: the change that asks).
   */
  apply(versions: Map<string, number>, db: Kysely<Database> = this.db, tagIds: string[] = []): Promise<void> {
    const entries: [string, ApplyEntry][] = [];
    for (const [id, version] of versions) if (!this.has(id, version)) entries.push([id, { version, db }]);
    return entries.length > 0 || tagIds.length > 0 ? this.queue.add(entries, [], tagIds) : Promise.resolve();
  }

  private has(id: string, version: number): boolean {
    return this.versions.has(id, version);
  }

  private async applyNow(entries: Map<string, ApplyEntry>, tags: IndexedTagRow[], tagIds: Set<string>) {
    const rows: IndexedProjectRow[] = [];
    const reread: string[] = [];
    // re-read where their changes were read, or on the primary when they were read in several
    const from = new Set<Kysely<Database>>();
    for (const [id, entry] of entries) {
      if (this.has(id, entry.version)) continue;
      // an own write's row of a transaction below the horizon: the follower has re-read its
      // project since (at least as new), and may have forgotten its version (versions.ts)
      if (entry.row && entry.xid !== undefined && entry.xid < this.freshness.horizon) continue;
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
    this.version++;
    const contents = { index: this.index, maxUpdated: this.maxUpdated };
    if (read) applyRows(contents, this.details, reread, read.projects, read.tags);
    if (rows.length > 0) applyWrittenRows(contents, this.details, rows, tags);
    if (curated) applyCuratedTags(contents, this.details, curated);
    for (const id of [...reread, ...rows.map((r) => r.id)]) {
      const version = entries.get(id)!.version;
      this.versions.set(id, version);
    }
    this.maxUpdated = contents.maxUpdated;
    this.applied += reread.length + rows.length;
    this.version++;
  }

  /**
   * Applies this process's own committed writes (the request's, see transaction.ts), so that its
   * answer to the write and every read after it see them: an upsert's projects from the rows it
   * wrote, any other project a change names re-read. A transaction the last build's snapshot saw
   * is in the model already. Failures are the feed's to repair.
   */
  async applyOwn(
    writes: Pick<RequestWrites, 'xids' | 'changes' | 'projects' | 'tags' | 'tagIds'>,
  ): Promise<void> {
    if (writes.xids.length === 0) return;
    // reads of what it wrote go to the primary until the standby shows it (a transaction that
    // wrote no project, as the queue's, changes nothing a standby serves)
    const written: string[] = [];
    for (const c of writes.changes) for (const id of [c.projectId, c.intoProjectId]) if (id) written.push(id);
    if (written.length > 0) this.reads.wrote(writes.xids, written);
    if (!this.built) return;
    const seen = this.builtFrom;
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
        if (!this.has(id, version)) entries.push([id, { version, row: rows.get(id), xid }]);
      if (entries.length > 0 || writes.tagIds.length > 0)
        await this.queue.add(entries, writes.tags, writes.tagIds);
    }
    this.freshness.markOwn(writes.xids);
  }

  // ————————————————————————————————————————— reading

  /** The position of what the model reflects (X-Directory-Position of a read). */
  get positionHeader(): string {
    return encodePosition(this.freshness.horizon);
  }

  /** Whether the model reflects position `at` (every transaction below it). */
  reached(at: bigint): boolean {
    return this.freshness.reached(at);
  }

  /**
   * Resolves once the model is built and has reached `minPosition` (when given), waiting at
   * most `ms`; else a 503 the client may retry.
   */
  async readable(minPosition: string | undefined, ms = 5000): Promise<void> {
    const at = minPosition === undefined ? undefined : decodePosition(minPosition);
    if (this.built && (at === undefined || this.reached(at))) return;
    const deadline = Date.now() + ms;
    if (!this.built) {
      const ok = await Promise.race([this.whenReady().then(() => true), timer(ms).then(() => false)]);
      if (!ok) throw notReady();
    }
    if (at === undefined) return;
    // a notification may be on its way: the follower looks at the feed now
    await this.freshness.waitFor(at, deadline - Date.now(), () => this.wakeLoop?.());
  }

  /**
   * A read of the model, its whole work in its turn (turns.ts): `search` reads the index and
   * names the projects its answer shows; `build` makes the answer from their details. Both run
   * in one turn when the detail cache has every project; else the missing ones are read from
   * the database (I/O, between turns) and `build` runs in a later turn with them.
   */
  async read<P, T>(
    search: (index: SearchIndex) => { ids: string[]; page: P },
    build: (page: P, projects: Project[]) => T,
  ): Promise<T> {
    let found: { ids: string[]; page: P } | undefined;
    let missing: string[] = [];
    const first = await this.turns.run(() => {
      found = search(this.index);
      const cached = cachedProjects(this.details, found.ids);
      missing = cached.missing;
      return missing.length === 0 ? { answer: build(found.page, cached.projects) } : undefined;
    });
    if (first) return first.answer;
    const loaded = await loadProjects(this.reads.forProjects(missing), this.details, missing);
    return this.turns.run(() =>
      build(found!.page, cachedProjects(this.details, found!.ids, loaded).projects),
    );
  }

  /** Runs work that reads nothing but the model's memory (a kept answer) in a turn of the reads. */
  inTurn<T>(work: () => T): Promise<T> {
    return this.turns.run(work);
  }

  /** Whether a read's work is running in its turn now (read-turns.test.ts checks what does). */
  get inReadTurn(): boolean {
    return this.turns.active;
  }

  /** Searches waiting for their turn (/metrics). */
  get searchesWaiting(): number {
    return this.turns.waiting;
  }

  /** The id of the project with this slug, if the model has it. */
  idOfSlug(slug: string): string | undefined {
    return this.index.idOfSlug(slug);
  }

  /** A later page of a walk leaves out projects written after its first page (see find-projects). */
  get asOf(): number {
    return this.maxUpdated;
  }

  stats(): ReadModelStats {
    const index = this.index.stats();
    const cache = this.details.size;
    return {
      ready: this.built,
      projects: index.projects,
      tags: index.tags,
      indexBytes: index.bytes,
      cacheProjects: cache.projects,
      cacheBytes: cache.bytes,
      buildSeconds: this.buildSeconds,
      readyFrom: this.readyFrom,
      position: Number(this.freshness.horizon),
      lagSeconds: this.built ? Math.max(0, (Date.now() - this.upToDateAt) / 1000 - IDLE_WAIT_MS / 1000) : 0,
      applied: this.applied,
      versions: this.versions.size,
    };
  }

  // ————————————————————————————————————————— waiting

  private async waitForChange(ms: number, since: number): Promise<void> {
    const p = pause(this.feed, ms, since);
    this.wakeLoop = p.wake;
    if (this.stopped) p.wake();
    await p.done;
    this.wakeLoop = undefined;
  }

  private async sleep(ms: number): Promise<void> {
    await Promise.race([timer(ms), new Promise<void>((resolve) => (this.wakeLoop = resolve))]);
    this.wakeLoop = undefined;
  }
}

export type { IndexedProjectRow };
