import { Kysely, PostgresDialect } from 'kysely';
import { type ConnectOptions, connect, type DatabaseHandle } from '../connect.ts';
import { preparingPool } from '../prepared-pool.ts';
import { visibleIn } from '../read-model/snapshot.ts';
import type { Database } from '../tables.ts';
import { fallbackPool } from './fallback-pool.ts';
import { lsnText, PrimaryMonitor, type StandbyState, type StandbyStatus, standbyState } from './monitor.ts';
import { OwnWrites } from './own-writes.ts';

/*
 * Where a process reads (docs/operating.md#standbys): hot standbys of the primary
 * (DATABASE_READ_URL) while they keep up, else the primary. Writes, the queue, keys, limits and
 * webhooks never come here; they use the primary's handle.
 *
 * - Every POLL_MS the monitor (monitor.ts) reads the primary's WAL position, then each
 *   standby's; lag.ts turns them into bytes and seconds.
 * - Reads go to the first standby, in the order given, that answers, replays (not paused) and
 *   lags at most READ_MAX_LAG_MS; to the primary when none does. While the primary cannot be
 *   reached, a standby's lag is how long ago the primary was last seen at a position the
 *   standby has not replayed (lag.ts): a standby behind by more is not read from then either,
 *   and reads wait for the primary (503 when they need it). Reads move to a standby only once it
 *   has replayed the primary's position read at the start of that poll.
 * - A read that fails because its standby went away runs again on the primary
 *   (fallback-pool.ts), and reads stay on the primary until a poll sees the standby answer.
 * - Read your writes (own-writes.ts): a transaction of this process is read on the primary
 *   until the current standby's snapshot shows it. On the primary, one committed before a poll
 *   began is forgotten: a standby is moved to only once it has replayed what that poll read.
 */

export const POLL_MS = 200;

export interface ReadRoute {
  /** 'primary', or 'standby 1', 'standby 2'… in the order of DATABASE_READ_URL. */
  name: string;
  standby: boolean;
  db: Kysely<Database>;
}

/** What the read model and the reads of a request need to know about where to read. */
export interface ReadRouting {
  /** Where the model builds and follows the feed now. */
  current(): ReadRoute;
  /** The database for a read that is not of particular projects. */
  db(): Kysely<Database>;
  /** The database for reads of these projects. */
  forProjects(ids: readonly string[]): Kysely<Database>;
  /** The primary: never behind the read model (docs/operating.md#standbys). */
  primary(): Kysely<Database>;
  /** This process committed these transactions, which wrote these projects ('all': what every project shows). */
  wrote(xids: readonly string[], projectIds: readonly string[] | 'all'): void;
}

/** Reads from the one database there is. */
export function primaryOnly(db: Kysely<Database>): ReadRouting {
  const route: ReadRoute = { name: 'primary', standby: false, db };
  return { current: () => route, db: () => db, forProjects: () => db, primary: () => db, wrote: () => {} };
}

export type { StandbyStatus };

export interface ReadStatus {
  /** Where reads go now. */
  from: string;
  maxLagMs: number;
  primaryReachable: boolean;
  primaryLsn: string | null;
  standbys: StandbyStatus[];
  /** How often reads moved between the primary and a standby since start. */
  switches: number;
}

interface Standby extends StandbyState {
  handle: DatabaseHandle;
  route: ReadRoute;
}

export class ReadSources implements ReadRouting {
  private readonly primaryRoute: ReadRoute;
  private readonly monitor: PrimaryMonitor;
  private readonly standbys: Standby[] = [];
  private readonly own = new OwnWrites();
  private index = -1;
  private started = false;
  private switches = 0;
  /** When the last poll began (it read the primary's position first). */
  private pollStarted = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  private constructor(
    primary: DatabaseHandle,
    primaryUrl: string,
    private readonly maxLagMs: number,
    private readonly log: (message: string, err?: unknown) => void,
  ) {
    this.primaryRoute = { name: 'primary', standby: false, db: primary.db };
    this.monitor = new PrimaryMonitor(primaryUrl, Math.max(60_000, 4 * maxLagMs));
  }

  /** Opens the standbys (a standby that is down now is used once it answers) and starts polling. */
  static async open(options: {
    primary: DatabaseHandle;
    primaryUrl: string;
    standbyUrls: readonly string[];
    maxLagMs: number;
    connectOptions: ConnectOptions;
    log: (message: string, err?: unknown) => void;
  }): Promise<ReadSources> {
    const sources = new ReadSources(options.primary, options.primaryUrl, options.maxLagMs, options.log);
    for (const [i, url] of options.standbyUrls.entries()) {
      const handle = await connect(url, options.connectOptions);
      const state = standbyState(`standby ${i + 1}`, url);
      const standby: Standby = {
        ...state,
        handle,
        route: { name: state.name, standby: true, db: undefined! },
      };
      const pool = fallbackPool(preparingPool(handle.pool), preparingPool(options.primary.pool), (err) =>
        sources.failed(standby, err),
      );
      standby.route.db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      sources.standbys.push(standby);
    }
    await sources.poll();
    sources.timer = setInterval(() => {
      sources.polling ??= sources.poll().finally(() => {
        sources.polling = undefined;
      });
    }, POLL_MS);
    sources.timer.unref();
    return sources;
  }

  current(): ReadRoute {
    return this.index < 0 ? this.primaryRoute : this.standbys[this.index]!.route;
  }

  db(): Kysely<Database> {
    return this.own.size > 0 ? this.primaryRoute.db : this.current().db;
  }

  forProjects(ids: readonly string[]): Kysely<Database> {
    return this.own.touches(ids) ? this.primaryRoute.db : this.current().db;
  }

  primary(): Kysely<Database> {
    return this.primaryRoute.db;
  }

  wrote(xids: readonly string[], projectIds: readonly string[] | 'all'): void {
    if (this.standbys.length > 0) this.own.add(xids, projectIds);
  }

  status(): ReadStatus {
    const latest = this.monitor.progress.latest;
    return {
      from: this.current().name,
      maxLagMs: this.maxLagMs,
      primaryReachable: this.monitor.reachable,
      primaryLsn: latest === undefined ? null : lsnText(latest),
      standbys: this.standbys.map((s) => ({
        name: s.name,
        address: s.address,
        reachable: s.reachable,
        inRecovery: s.inRecovery,
        replayPaused: s.replayPaused,
        receivedLsn: s.receivedLsn,
        replayedLsn: s.replayedLsn,
        lagBytes: s.lagBytes,
        receiveLagBytes: s.receiveLagBytes,
        lagSeconds: s.lagSeconds,
      })),
      switches: this.switches,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await this.monitor.close();
    for (const s of this.standbys) {
      await s.monitor.end().catch(() => {});
      await s.route.db.destroy().catch(() => {});
      await s.handle.close().catch(() => {});
    }
  }

  /** A read on this standby failed for want of it: reads go to the primary until the next poll. */
  private failed(standby: Standby, err: unknown) {
    if (standby.reachable) this.log(`${standby.name} cannot be read from; reading from the primary`, err);
    standby.reachable = false;
    standby.failedAt = Date.now();
    if (this.current() === standby.route) this.moveTo(-1, `a read on ${standby.name} failed`);
  }

  /** One poll of every server, then the choice of where to read. */
  private async poll(): Promise<void> {
    const at = Date.now();
    this.pollStarted = at;
    await this.monitor.poll(at);
    await Promise.all(
      this.standbys.map((s) =>
        this.monitor.pollStandby(s, at, (err) => this.log(`${s.name} does not answer`, err)),
      ),
    );
    this.choose();
  }

  private usable(s: Standby): boolean {
    return this.unusable(s) === undefined;
  }

  /** Why reads cannot go to the standby now (for the log line of a move), or undefined. */
  private unusable(s: Standby): string | undefined {
    if (!s.reachable) return 'it does not answer';
    if (!s.inRecovery) return 'it is not in recovery (not a standby)';
    if (s.replayed === undefined) return 'it has replayed nothing yet';
    if (s.replayPaused) return 'its replay is paused';
    // the primary cannot be reached: behind since the primary was last seen past its replay
    const ms =
      s.lagSeconds !== null ? s.lagSeconds * 1000 : this.monitor.progress.lagMs(s.replayed, Date.now());
    // never seen the primary (started while it is down): its lag cannot be known
    if (ms !== undefined && ms > this.maxLagMs)
      return `it is ${Math.round(ms)} ms behind (READ_MAX_LAG_MS=${this.maxLagMs})`;
    return undefined;
  }

  /** Whether the standby has replayed what the primary had written when this poll began. */
  private caughtUp(s: Standby): boolean {
    // the first choice: nothing was read anywhere yet
    if (!this.started || !this.monitor.reachable) return true;
    const then = this.monitor.progress.latest;
    return then === undefined || (s.replayed !== undefined && s.replayed >= then);
  }

  private choose() {
    const current = this.index >= 0 ? this.standbys[this.index] : undefined;
    const why = current && this.unusable(current);
    let next = -1;
    if (current && !why) next = this.index;
    else next = this.standbys.findIndex((s) => this.usable(s) && this.caughtUp(s));
    this.moveTo(
      next,
      why ? `${current?.name} cannot be read from: ${why}` : 'it has caught up with the primary',
    );
    this.started = true;
    const on = this.index >= 0 ? this.standbys[this.index] : undefined;
    this.own.forget((xid, at) =>
      on ? on.snapshot !== undefined && visibleIn(on.snapshot, xid) : at < this.pollStarted,
    );
  }

  private moveTo(index: number, why: string) {
    if (index === this.index) return;
    const from = this.current().name;
    this.index = index;
    if (!this.started) return this.log(`reads go to ${this.current().name}`);
    this.switches++;
    this.log(`reads move from ${from} to ${this.current().name}: ${why}`);
  }
}
