import pg from 'pg';
import { parseSnapshot, type Snapshot } from '../read-model/snapshot.ts';
import { PrimaryProgress, parseLsn } from './lag.ts';

/*
 * The poll of the primary and of each standby (docs/operating.md#what-an-operator-sees): the
 * primary's WAL position; each standby's received and replayed positions, whether replay is
 * paused, and its current snapshot (which of this process's own writes it shows). One
 * connection per server, outside the pools, with a short timeout: a server that does not
 * answer within it counts as unreachable.
 */

const MONITOR_TIMEOUT_MS = 1_000;

export interface StandbyStatus {
  name: string;
  /** host:port/database, without credentials. */
  address: string;
  reachable: boolean;
  /** False for a server that is not in recovery (not a standby): it is not read from. */
  inRecovery: boolean;
  replayPaused: boolean;
  receivedLsn: string | null;
  replayedLsn: string | null;
  /** Bytes of the primary's WAL not replayed yet (null while the primary cannot be reached). */
  lagBytes: number | null;
  /** Bytes of the primary's WAL not even received yet. */
  receiveLagBytes: number | null;
  lagSeconds: number | null;
}

/** A standby as the monitor last saw it. */
export interface StandbyState extends StandbyStatus {
  monitor: pg.Pool;
  replayed: bigint | undefined;
  snapshot: Snapshot | undefined;
  /** When a read last failed on it: it counts as reachable again only after a later poll. */
  failedAt: number;
}

export const lsnText = (n: bigint) =>
  `${(n >> 32n).toString(16).toUpperCase()}/${(n & 0xffffffffn).toString(16).toUpperCase()}`;

export function standbyState(name: string, url: string): StandbyState {
  const u = new URL(url);
  return {
    name,
    address: `${u.hostname}:${u.port || '5432'}${u.pathname}`,
    reachable: false,
    inRecovery: false,
    replayPaused: false,
    receivedLsn: null,
    replayedLsn: null,
    lagBytes: null,
    receiveLagBytes: null,
    lagSeconds: null,
    monitor: monitorPool(url),
    replayed: undefined,
    snapshot: undefined,
    failedAt: 0,
  };
}

export class PrimaryMonitor {
  readonly progress: PrimaryProgress;
  reachable = true;
  private readonly pool: pg.Pool;

  constructor(url: string, keepMs: number) {
    this.progress = new PrimaryProgress(keepMs);
    this.pool = monitorPool(url);
  }

  async poll(at: number): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      this.progress.record(at, parseLsn(rows[0]!.lsn));
      this.reachable = true;
    } catch {
      this.reachable = false;
    }
  }

  /** Polls a standby; `onLost` is told when one that answered no longer does. */
  async pollStandby(s: StandbyState, at: number, onLost: (err: unknown) => void): Promise<void> {
    try {
      const { rows } = await s.monitor.query<{
        recovery: boolean;
        received: string | null;
        replayed: string | null;
        paused: boolean | null;
        snapshot: string;
      }>(
        `select pg_is_in_recovery() as recovery, pg_last_wal_receive_lsn()::text as received,
          pg_last_wal_replay_lsn()::text as replayed,
          case when pg_is_in_recovery() then pg_is_wal_replay_paused() end as paused,
          pg_current_snapshot()::text as snapshot`,
      );
      const r = rows[0]!;
      if (s.failedAt < at) s.reachable = true;
      s.inRecovery = r.recovery;
      s.replayPaused = r.paused === true;
      s.receivedLsn = r.received;
      s.replayedLsn = r.replayed;
      s.replayed = r.replayed === null ? undefined : parseLsn(r.replayed);
      s.snapshot = parseSnapshot(r.snapshot);
      const received = r.received === null ? undefined : parseLsn(r.received);
      // while the primary does not answer, against where it was last seen: a number an alert
      // can compare, and the primary's own state is db_primary_up (docs/operating.md#what-an-operator-sees)
      const behind = (lsn: bigint | undefined) =>
        lsn !== undefined ? (this.progress.lagBytes(lsn) ?? null) : null;
      s.lagBytes = behind(s.replayed);
      s.receiveLagBytes = behind(received);
      const ms = s.replayed !== undefined ? this.progress.lagMs(s.replayed, Date.now()) : undefined;
      s.lagSeconds = ms === undefined ? null : ms / 1000;
    } catch (err) {
      if (s.reachable) onLost(err);
      s.reachable = false;
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

function monitorPool(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: MONITOR_TIMEOUT_MS,
    query_timeout: MONITOR_TIMEOUT_MS,
    application_name: 'directory read monitor',
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
