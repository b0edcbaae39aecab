import { primaryOnly, type ReadRouting } from '@directory/db';
import type { SearchIndex } from '@directory/search';
import { type FeedServices, pollingFeed } from '../changes/feed.ts';
import type { RequestWrites } from '../transaction.ts';
import { Applier } from './apply.ts';
import { buildFromDatabase, checkPins, checkSynonyms, restoreFromSnapshot } from './build.ts';
import { type CachedProject, DetailCache } from './detail-cache.ts';
import { FeedFollower } from './follow.ts';
import { Held } from './held.ts';
import { encodePosition } from './position.ts';
import { read, readable } from './read.ts';
import type { ReadModelOptions, ReadModelStats } from './read-model.types.ts';
import { ModelState } from './snapshot-file.ts';
import { Snapshots } from './snapshots.ts';
import { type ModelLife, modelStats, newLife } from './stats.ts';
import { Turns } from './turns.ts';
import { pause, timer } from './waiting.ts';

/*
 * The read model (docs/search.md#how-it-is-served-a-read-model-in-every-process): what GET /api/projects,
 * GET /api/tags and GET /api/projects/{slug} need, held in memory by every server process and kept fresh
 * by the change feed. The database stays the one source of truth. This file puts the parts
 * together, each one idea in its own file, all given the one value the model holds (held.ts):
 *
 * - Build (build.ts, contents.ts): the contents whole, from one REPEATABLE READ snapshot of the
 *   database, or from the model's snapshot on local disk (snapshots.ts) brought up to date.
 * - Follow (follow.ts, waiting.ts): the change feed read from where the contents are; a change
 *   of a transaction the build saw is skipped. Wake-ups: the feed's LISTEN signal
 *   (FeedServices); when an older transaction holds the feed back, it looks again every 20 ms.
 * - Apply (apply.ts, apply-queue.ts, versions.ts): the projects the feed names re-read and put
 *   in, one batch at a time, at most once per change; this process's own writes from the rows
 *   it wrote, before the write is answered.
 * - Read (read.ts, turns.ts, project-pages.ts, detail-cache.ts): a read waits until the model
 *   can answer it (built, at its minPosition: position.ts), then its whole work runs in a turn.
 * - Snapshots (snapshots.ts): written now and then and when the model stops.
 */

export type { ReadModelOptions, ReadModelStats };
export { encodePosition };

/** How often the follower of a standby looks at the feed when idle (docs/operating.md#read-your-writes). */
const STANDBY_WAIT_MS = 50;

export class ReadModel {
  private readonly held: Held;
  private readonly applier: Applier;
  private readonly reads: ReadRouting;
  private readonly feed: FeedServices;
  private readonly warn: (message: string, err: unknown) => void;
  private readonly follower: FeedFollower;
  private readonly turns = new Turns();
  private readonly snapshots: Snapshots | undefined;
  private stopped = false;
  /** Built yet, in how long, from where, and when last up to date with the feed (stats.ts). */
  private readonly life: ModelLife = newLife();
  private readonly readyWaiters: (() => void)[] = [];
  private loop: Promise<void> | undefined;
  private wakeLoop: (() => void) | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  /** `version` when the last snapshot was written (or loaded): an unchanged model is not written again. */
  private savedVersion = -1;

  constructor(options: ReadModelOptions) {
    const db = options.db;
    this.reads = options.reads ?? primaryOnly(db);
    this.feed = options.feed ?? pollingFeed;
    this.held = new Held(new DetailCache(options.cacheBytes ?? 256 * 1024 * 1024));
    this.warn = options.warn ?? (() => {});
    this.snapshots = options.snapshots && new Snapshots(options.snapshots, db);
    this.applier = new Applier(this.held, db, this.reads);
    this.follower = new FeedFollower(() => this.reads.current().db, {
      apply: (versions, from, tagIds) => this.applier.apply(versions, from, tagIds),
      advance: (xmin, xmax) => {
        this.held.freshness.advance(xmin);
        this.held.versions.passed(xmin, xmax);
      },
      rebuild: () => this.build(),
      checkSynonyms: async (now) => {
        await checkSynonyms(this.held, this.reads.current().db, now);
        await checkPins(this.held, this.reads.current().db, now);
      },
      upToDate: () => {
        this.life.upToDateAt = Date.now();
      },
      warn: (message, err) => this.warn(message, err),
    });
  }

  /** The index the model answers from now (a build replaces it). */
  get index(): SearchIndex {
    return this.held.index;
  }

  /** The projects' details (detail-cache.ts). */
  get details(): DetailCache {
    return this.held.details;
  }

  /** Bumped by every change of what the model answers (applies, builds, synonyms). */
  get version(): number {
    return this.held.version;
  }

  get ready(): boolean {
    return this.life.built;
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
    this.held.freshness.wakeAll();
    await this.loop?.catch(() => {});
    await this.saveSnapshot();
  }

  /** Writes the model's snapshot now (when it has one to write, and changed since the last). */
  async saveSnapshot(): Promise<void> {
    const held = this.held;
    if (!this.snapshots || !this.life.built || held.version === this.savedVersion) return;
    const version = held.version;
    const saved = await this.snapshots.save(
      (fn) => this.applier.exclusive(fn),
      () => ({
        state: new ModelState(held.index),
        horizon: held.freshness.horizon,
        synonymsVersion: held.synonymsVersion,
        maxUpdated: held.maxUpdated,
        projects: held.index.stats().projects,
      }),
    );
    if (saved) this.savedVersion = version;
  }

  /** Re-reads the synonyms now, on the primary (a PUT in this process; docs/operating.md#read-your-writes). */
  async refreshSynonyms(): Promise<void> {
    await checkSynonyms(this.held, this.applier.db, true);
  }

  /** Re-reads the pins now, on the primary (a PUT in this process), as refreshSynonyms. */
  async refreshPins(): Promise<void> {
    await checkPins(this.held, this.applier.db, true);
  }

  /** The version of the pins the model searches with ('' before it has read them). */
  get pinsVersion(): string {
    return this.held.pinsVersion;
  }

  /** The version of the synonyms the model searches with ('' before it is built). */
  get synonymsVersion(): string {
    return this.held.synonymsVersion;
  }

  /** Applies this process's own committed writes before the write is answered (apply.ts). */
  applyOwn(
    writes: Pick<RequestWrites, 'xids' | 'changes' | 'projects' | 'tags' | 'tagIds' | 'beyondProjects'>,
  ): Promise<void> {
    return this.applier.applyOwn(writes, this.life.built);
  }

  // ————————————————————————————————————————— reading (read.ts)

  /** The position of what the model reflects (X-Directory-Position of a read). */
  get positionHeader(): string {
    return encodePosition(this.held.freshness.horizon);
  }

  /** Once built and at `minPosition` (waiting at most `ms`), else a 503 (read.ts). */
  readable(minPosition: string | undefined, ms = 5000): Promise<void> {
    const { built } = this.life;
    const model = { built, whenReady: () => this.whenReady(), wake: () => this.wakeLoop?.() };
    return readable(this.held, model, minPosition, ms);
  }

  /** A read of the model, its whole work in its turn (read.ts). */
  read<P, T>(
    search: (index: SearchIndex) => { ids: string[]; page: P },
    build: (page: P, projects: CachedProject[]) => T,
  ): Promise<T> {
    return read(this.held, this.turns, this.reads, search, build);
  }

  /** Runs work that reads nothing but the model's memory (a kept answer) in a turn of the reads. */
  inTurn<T>(work: () => T): Promise<T> {
    return this.turns.run(work);
  }

  /** Whether a read's work is running in its turn now (read-turns.test.ts checks what does). */
  get inReadTurn(): boolean {
    return this.turns.active;
  }

  /** The id of the project with this slug, if the model has it. */
  idOfSlug(slug: string): string | undefined {
    return this.held.index.idOfSlug(slug);
  }

  /** A later page of a walk leaves out projects written after its first page (see find-projects). */
  get asOf(): number {
    return this.held.maxUpdated;
  }

  stats(): ReadModelStats {
    return modelStats(this.held, this.life);
  }

  // ————————————————————————————————————————— the model's life: build, follow, stop

  private async run(): Promise<void> {
    await this.restore();
    while (!this.stopped && !this.life.built && !this.feed.stopping) {
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
        const standby = this.reads.current().standby;
        if (wait > 0) await this.waitForChange(standby ? Math.min(wait, STANDBY_WAIT_MS) : wait, since);
      } catch (err) {
        if (this.stopped) break;
        this.warn('cannot follow the change feed; trying again', err);
        await this.sleep(500);
      }
    }
  }

  /** Starts from the snapshot on disk when it may (build.ts); only then is the model ready. */
  private async restore(): Promise<void> {
    if (!this.snapshots) return;
    const started = performance.now();
    try {
      const ready = await restoreFromSnapshot(this.held, this.snapshots, this.follower, {
        stopped: () => this.stopped,
        builtMeanwhile: () => this.life.built,
      });
      if (!ready) return;
      this.savedVersion = this.held.version;
      this.life.readyFrom = 'snapshot';
      this.becomeReady(started);
    } catch (err) {
      this.warn('cannot start from the read model snapshot; building from the database', err);
    }
  }

  private async build(): Promise<void> {
    const started = performance.now();
    await buildFromDatabase(this.held, this.reads.current().db, this.follower, (fn) =>
      this.applier.exclusive(fn),
    );
    this.life.readyFrom = 'database';
    this.becomeReady(started);
  }

  private becomeReady(started: number) {
    this.life.buildSeconds = (performance.now() - started) / 1000;
    this.life.built = true;
    this.life.upToDateAt = Date.now();
    for (const wake of this.readyWaiters.splice(0)) wake();
    const every = this.snapshots?.intervalMs ?? 0;
    if (every > 0 && !this.snapshotTimer) {
      this.snapshotTimer = setInterval(() => void this.saveSnapshot(), every);
      this.snapshotTimer.unref();
    }
  }

  private whenReady(): Promise<void> {
    if (this.life.built) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

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
