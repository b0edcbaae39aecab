import {
  type Database,
  type FeedPosition,
  findProjectDetailsByIds,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  readChanges,
  readChangesOfTransactions,
  readIndexedProjects,
  readModelSnapshot,
  readSynonyms,
  readSynonymsVersion,
  type Snapshot,
  visibleIn,
} from '@directory/db';
import { SearchIndex } from '@directory/search';
import { type FeedServices, pollingFeed } from '../changes/feed.ts';
import { decodeCursor, encodeCursor, feedPositionToken } from '../domain/cursor.ts';
import { AppError } from '../errors.ts';
import { toProject } from '../schemas/project.ts';
import { DetailCache, type ProjectBody as Project } from './detail-cache.ts';

/*
 * The read model (issue 17; EXTENSIONS D): what GET /api/projects, GET /api/tags and
 * GET /api/projects/{slug} need, held in memory by every server process and kept fresh by the
 * change feed. The database stays the one source of truth.
 *
 * - Build: one REPEATABLE READ snapshot gives every tag and project, and the snapshot's
 *   bounds (xmin, xmax, in-progress xids). The feed is then read from xmin on; a change whose
 *   transaction the snapshot already saw is skipped, every other one applied: no change is
 *   lost between the two, none applied twice.
 * - Apply: a change names a project; the model re-reads it by id as it is now (gone: removed)
 *   and puts it into the index. Applies run one at a time, so a later read always wins, and
 *   the ids waiting meanwhile are read together (one statement for many writes).
 * - Position: `horizon` is the feed's xmin at the model's last complete read: every
 *   transaction below it has ended and its changes are applied. X-Directory-Position
 *   encodes it; a write's response encodes its own xid + 1. `minPosition` waits for the
 *   horizon to pass it (or, in the process that wrote it, for its own write to be applied).
 * - Own writes: after a write commits, the process reads the changes of its own transaction
 *   and applies them before it answers, without waiting for the feed.
 * - Wake-ups: the change feed's LISTEN signal (FeedServices); when an older transaction holds
 *   the feed back, it looks again every 20 ms.
 */

export interface ReadModelOptions {
  db: Kysely<Database>;
  feed?: FeedServices | undefined;
  /** The detail cache's budget (READ_CACHE_MB). */
  cacheBytes?: number;
  /** Warnings of the follower (a failed read: it retries). */
  warn?: (message: string, err: unknown) => void;
}

export interface ReadModelStats {
  ready: boolean;
  projects: number;
  tags: number;
  indexBytes: number;
  cacheProjects: number;
  cacheBytes: number;
  buildSeconds: number;
  /** The horizon as a number (the feed's xid), and the feed's newest xid seen. */
  position: number;
  /** Seconds since the model last knew it was up to date with the feed (0 when it is). */
  lagSeconds: number;
  applied: number;
}

const PAGE = 1000;
const HELD_BACK_RETRY_MS = 20;
const IDLE_WAIT_MS = 1000;
const SYNONYMS_CHECK_MS = 500;
/** X-Directory-Position's value: opaque to clients. */
export const encodePosition = (horizon: bigint): string => encodeCursor(feedPositionToken, horizon);

const decodePosition = (text: string): bigint => decodeCursor(feedPositionToken, text);

export const notReady = () =>
  new AppError('UNAVAILABLE', ['The search index is being built; retry after Retry-After seconds']);

export class ReadModel {
  index = new SearchIndex();
  readonly details: DetailCache;
  private readonly db: Kysely<Database>;
  private readonly feed: FeedServices;
  private readonly warn: (message: string, err: unknown) => void;
  private readonly slugs = new Map<string, string>();
  private snapshot: Snapshot | undefined;
  private position: FeedPosition = { xid: '0', id: '0' };
  private horizon = 0n;
  private readonly ownApplied = new Set<bigint>();
  private waiters: { at: bigint; wake: () => void }[] = [];
  private stopped = false;
  private built = false;
  private readonly readyWaiters: (() => void)[] = [];
  private buildSeconds = 0;
  private upToDateAt = Date.now();
  private applied = 0;
  /** Bumped by every change of what the model answers (applies, builds, synonyms). */
  version = 0;
  private maxUpdated = 0;
  private synonymsVersion = '';
  private synonymsCheckedAt = 0;
  private loop: Promise<void> | undefined;
  private wakeLoop: (() => void) | undefined;
  // the apply queue: ids waiting, and the callers waiting for them
  private pending = new Set<string>();
  private pendingDone: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private applying = false;

  constructor(options: ReadModelOptions) {
    this.db = options.db;
    this.feed = options.feed ?? pollingFeed;
    this.details = new DetailCache(options.cacheBytes ?? 256 * 1024 * 1024);
    this.warn = options.warn ?? (() => {});
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
    this.wakeLoop?.();
    for (const w of this.waiters) w.wake();
    this.waiters = [];
    await this.loop?.catch(() => {});
  }

  private whenReady(): Promise<void> {
    if (this.built) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private async run(): Promise<void> {
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
        const wait = await this.followOnce();
        if (wait > 0) await this.waitForChange(wait, since);
      } catch (err) {
        if (this.stopped) break;
        this.warn('cannot follow the change feed; trying again', err);
        await this.sleep(500);
      }
    }
  }

  private async build(): Promise<void> {
    const started = performance.now();
    const index = new SearchIndex();
    const slugs = new Map<string, string>();
    let maxUpdated = 0;
    const { snapshot, synonyms } = await readModelSnapshot(
      this.db,
      (tags) => index.putTags(tags),
      (projects) => {
        index.put(projects);
        for (const p of projects) {
          slugs.set(p.slug, p.id);
          if (p.updatedAt > maxUpdated) maxUpdated = p.updatedAt;
        }
      },
    );
    index.setSynonyms(synonyms.sets);
    this.index = index;
    this.version++;
    this.slugs.clear();
    for (const [slug, id] of slugs) this.slugs.set(slug, id);
    this.maxUpdated = maxUpdated;
    this.synonymsVersion = synonyms.version;
    this.synonymsCheckedAt = Date.now();
    this.details.clear();
    this.snapshot = snapshot;
    // every change of a transaction from xmin on is read; those the snapshot saw are skipped
    this.position =
      snapshot.xmin > 0n
        ? { xid: String(snapshot.xmin - 1n), id: '9223372036854775807' }
        : { xid: '0', id: '0' };
    this.horizon = snapshot.xmin;
    this.buildSeconds = (performance.now() - started) / 1000;
    this.built = true;
    this.upToDateAt = Date.now();
    for (const wake of this.readyWaiters.splice(0)) wake();
  }

  /** One read of the feed and its applies; returns how long to wait before the next (0: at once). */
  private async followOnce(): Promise<number> {
    const page = await readChanges(this.db, this.position, PAGE);
    if (page.expired) {
      // the model fell behind the feed's retention: what it missed is gone from the feed
      this.warn('the read model fell behind the change feed retention; rebuilding', undefined);
      await this.build();
      return 0;
    }
    const ids = new Set<string>();
    for (const c of page.changes) {
      if (this.snapshot && visibleIn(this.snapshot, BigInt(c.xid))) continue;
      if (c.projectId) ids.add(c.projectId);
      if (c.intoProjectId) ids.add(c.intoProjectId);
    }
    if (ids.size > 0) await this.apply([...ids]);
    const last = page.changes[page.changes.length - 1];
    if (last) this.position = { xid: last.xid, id: last.id };
    const full = page.changes.length === PAGE;
    if (!full) this.advance(BigInt(page.xmin));
    await this.checkSynonyms();
    if (full) return 0;
    if (page.heldBack) return HELD_BACK_RETRY_MS;
    this.upToDateAt = Date.now();
    return IDLE_WAIT_MS;
  }

  private advance(xmin: bigint) {
    if (xmin <= this.horizon) return;
    this.horizon = xmin;
    if (this.snapshot && xmin > this.snapshot.xmax) this.snapshot = undefined;
    for (const x of this.ownApplied) if (x < xmin) this.ownApplied.delete(x);
    this.wakeWaiters();
  }

  private wakeWaiters() {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) (this.reached(w.at) ? w.wake : () => still.push(w))();
    this.waiters = still;
  }

  private async checkSynonyms(force = false) {
    if (!force && Date.now() - this.synonymsCheckedAt < SYNONYMS_CHECK_MS) return;
    this.synonymsCheckedAt = Date.now();
    const version = await readSynonymsVersion(this.db);
    if (version === this.synonymsVersion) return;
    const synonyms = await readSynonyms(this.db);
    this.index.setSynonyms(synonyms.sets);
    this.synonymsVersion = synonyms.version;
    this.version++;
  }

  /** Re-reads the synonyms now (a PUT of them in this process). */
  async refreshSynonyms(): Promise<void> {
    await this.checkSynonyms(true);
  }

  // ————————————————————————————————————————— applying

  /** Re-reads these projects as they are now and puts them into the index (one at a time, batched). */
  apply(ids: string[]): Promise<void> {
    for (const id of ids) this.pending.add(id);
    const done = new Promise<void>((resolve, reject) => this.pendingDone.push({ resolve, reject }));
    void this.pump();
    return done;
  }

  private async pump() {
    if (this.applying) return;
    this.applying = true;
    try {
      while (this.pending.size > 0) {
        const ids = [...this.pending];
        const done = this.pendingDone;
        this.pending = new Set();
        this.pendingDone = [];
        try {
          await this.applyNow(ids);
          for (const d of done) d.resolve();
        } catch (err) {
          for (const d of done) d.reject(err);
        }
      }
    } finally {
      this.applying = false;
    }
  }

  private async applyNow(ids: string[]) {
    const { projects, tags } = await readIndexedProjects(this.db, ids);
    this.version++;
    this.putTags(tags);
    const found = new Set<string>();
    for (const p of projects) {
      found.add(p.id);
      const old = this.index.project(p.id);
      if (old && old.slug !== p.slug && this.slugs.get(old.slug) === p.id) this.slugs.delete(old.slug);
      this.slugs.set(p.slug, p.id);
      if (p.updatedAt > this.maxUpdated) this.maxUpdated = p.updatedAt;
      this.details.invalidate(p.id);
    }
    this.index.put(projects);
    const gone = ids.filter((id) => !found.has(id));
    for (const id of gone) {
      const old = this.index.project(id);
      if (old && this.slugs.get(old.slug) === id) this.slugs.delete(old.slug);
      this.details.invalidate(id);
    }
    this.index.remove(gone);
    this.applied += ids.length;
    this.version++;
  }

  private putTags(tags: IndexedTagRow[]) {
    const changed = tags.filter((t) => {
      const old = this.index.tag(t.id);
      return !old || old.name !== t.name || old.nameEn !== t.nameEn || old.slug !== t.slug;
    });
    if (changed.length === 0) return;
    // a tag's English name shows in every project that has it: their cached details go
    if (changed.some((t) => this.index.tag(t.id) !== undefined)) this.details.clear();
    this.index.putTags(changed);
  }

  /**
   * Applies the project changes of this process's own committed transactions, so that its
   * answer to the write and every read after it see them. Failures are the feed's to repair.
   */
  async applyOwn(xids: string[]): Promise<void> {
    if (xids.length === 0 || !this.built) return;
    const changes = await readChangesOfTransactions(this.db, xids);
    const ids = new Set<string>();
    for (const c of changes) {
      ids.add(c.projectId);
      if (c.intoProjectId) ids.add(c.intoProjectId);
    }
    if (ids.size > 0) await this.apply([...ids]);
    for (const x of xids) {
      const xid = BigInt(x);
      if (xid >= this.horizon) this.ownApplied.add(xid);
    }
    this.wakeWaiters();
  }

  // ————————————————————————————————————————— reading

  /** The position of what the model reflects (X-Directory-Position of a read). */
  get positionHeader(): string {
    return encodePosition(this.horizon);
  }

  /** Whether the model reflects position `at` (every transaction below it). */
  reached(at: bigint): boolean {
    return this.horizon >= at || this.ownApplied.has(at - 1n);
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
      const ok = await Promise.race([this.whenReady().then(() => true), this.timer(ms).then(() => false)]);
      if (!ok) throw notReady();
    }
    if (at === undefined || this.reached(at)) return;
    const left = deadline - Date.now();
    const ok = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        },
        Math.max(0, left),
      );
      const waiter = {
        at,
        wake: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
      // a notification may be on its way: look at the feed now rather than at the next wake-up
      this.wakeLoop?.();
    });
    if (!ok || !this.reached(at))
      throw new AppError('UNAVAILABLE', [
        'minPosition: This process has not reached that position yet; retry after Retry-After seconds',
      ]);
  }

  /** The id of the project with this slug, if the model has it. */
  idOfSlug(slug: string): string | undefined {
    return this.slugs.get(slug);
  }

  /** A later page of a walk leaves out projects written after its first page (see find-projects). */
  get asOf(): number {
    return this.maxUpdated;
  }

  /**
   * The projects of a page in the API's shape, in the order of `ids`: from the detail cache,
   * the misses read in one statement. A project deleted meanwhile is left out.
   */
  async projects(ids: string[]): Promise<Project[]> {
    const out: (Project | undefined)[] = ids.map((id) => this.details.get(id));
    const missing = ids.filter((_, i) => out[i] === undefined);
    if (missing.length > 0) {
      const since = this.details.begin();
      try {
        const rows = await findProjectDetailsByIds(this.db, missing);
        const byId = new Map(rows.map((r) => [r.id, toProject(r)]));
        for (let i = 0; i < ids.length; i++) {
          if (out[i] !== undefined) continue;
          const p = byId.get(ids[i]!);
          out[i] = p;
          if (p) this.details.fill(p, since);
        }
      } finally {
        this.details.end();
      }
    }
    return out.filter((p): p is Project => p !== undefined);
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
      position: Number(this.horizon),
      lagSeconds: this.built ? Math.max(0, (Date.now() - this.upToDateAt) / 1000 - IDLE_WAIT_MS / 1000) : 0,
      applied: this.applied,
    };
  }

  // ————————————————————————————————————————— waiting

  private waitForChange(ms: number, since: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.wakeLoop = undefined;
        resolve();
      };
      this.wakeLoop = finish;
      if (this.stopped) return finish();
      if (ms <= HELD_BACK_RETRY_MS) {
        const t = setTimeout(finish, ms);
        t.unref?.();
        return;
      }
      // a feed that answers without a change (a poller, a stub) is not allowed to spin the loop
      const started = Date.now();
      void this.feed.waitForChange(ms, since).then(() => {
        const early = Math.min(ms, 100) - (Date.now() - started);
        if (this.feed.version !== since || early <= 0 || this.feed.stopping) return finish();
        const t = setTimeout(finish, early);
        t.unref?.();
      });
    });
  }

  private async sleep(ms: number): Promise<void> {
    await Promise.race([this.timer(ms), new Promise<void>((resolve) => (this.wakeLoop = resolve))]);
    this.wakeLoop = undefined;
  }

  private timer(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref?.();
    });
  }
}

export type { IndexedProjectRow };
