import type { ReadModel } from '@directory/core/server';
import type { ReadSources } from '@directory/db';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Where this process reads, as /healthz?verbose=1 and /metrics show it
 * (docs/operating.md#what-an-operator-sees): the source of its reads and of its read model's
 * feed, each standby's replay lag in seconds and bytes, and the model's position.
 */
export function readsHealth(model: ReadModel, reads: ReadSources | undefined) {
  const position = model.stats().position;
  if (!reads) return { reads: { from: 'primary', standbys: [] }, position };
  const { switches: _, ...status } = reads.status();
  return { reads: status, position };
}

const PRIMARY_ONLY: ReturnType<ReadSources['status']> = {
  from: 'primary',
  maxLagMs: 0,
  primaryReachable: true,
  primaryLsn: null,
  standbys: [],
  switches: 0,
};

/**
 * The gauges of the read sources, read at scrape time; without standbys (no DATABASE_READ_URL)
 * the same metrics, reads from the primary and no standby series, so that alert rules and
 * dashboards name metrics every server exports.
 */
export function readsMetrics(registry: Registry, sources: ReadSources | undefined) {
  const reads = sources ?? { status: () => PRIMARY_ONLY };
  const gauge = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (set: (labels: Record<string, string>, value: number) => void) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        fill((labels, value) => this.set(labels, value));
      },
    });
  const standbys =
    (read: (s: ReturnType<ReadSources['status']>['standbys'][number]) => number | null) =>
    (set: (labels: Record<string, string>, value: number) => void) => {
      for (const s of reads.status().standbys) set({ standby: s.name }, read(s) ?? Number.NaN);
    };
  gauge(
    'db_reads_from',
    'Where this process reads now: 1 for that source, 0 for the others',
    ['source'],
    (set) => {
      const status = reads.status();
      for (const name of ['primary', ...status.standbys.map((s) => s.name)])
        set({ source: name }, Number(name === status.from));
    },
  );
  new Counter({
    name: 'db_read_source_switches_total',
    help: 'How often reads moved between the primary and a standby since the process started',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(reads.status().switches);
    },
  });
  gauge(
    'db_standby_reachable',
    'Whether the standby answers (1) or not (0)',
    ['standby'],
    standbys((s) => Number(s.reachable)),
  );
  gauge(
    'db_standby_lag_seconds',
    'Replay lag: seconds since the primary first wrote WAL the standby has not replayed (while the primary cannot be reached: against where it was last seen; NaN only when it was never seen)',
    ['standby'],
    standbys((s) => s.lagSeconds),
  );
  gauge(
    'db_standby_lag_bytes',
    "Replay lag: bytes of the primary's WAL the standby has not replayed",
    ['standby'],
    standbys((s) => s.lagBytes),
  );
  gauge(
    'db_standby_replay_paused',
    'Whether replay is paused on the standby (pg_wal_replay_pause)',
    ['standby'],
    standbys((s) => Number(s.replayPaused)),
  );
}
