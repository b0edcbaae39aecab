import { type QueueEvent, type ReadModel, readQueueStats } from '@directory/core/server';
import {
  type Database,
  deliveryCounts,
  type Kysely,
  oldestUndeliveredAge,
  type ReadSources,
} from '@directory/db';

type DeliveryCounts = Awaited<ReturnType<typeof deliveryCounts>>;

import type { Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from './logger.ts';
import { readsMetrics } from './read-status.ts';

/** What the pool gauges read: pg.Pool's counters. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const TASK_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
const QUEUE_EVENTS: readonly QueueEvent[] = ['claimed', 'heartbeat', 'released', 'reaped', 'fenced'];

/**
 * Prometheus metrics of one app: requests by route and status (count and latency), the
 * database pool, and discovery tasks by status (counted at scrape time). Each app has its
 * own registry, so that several apps in one process (tests) do not share counters.
 */
export function createMetrics(options: {
  db: Kysely<Database>;
  pool?: PoolStats | undefined;
  logger: Logger;
  readModel?: ReadModel | undefined;
  reads?: ReadSources | undefined;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const model = options.readModel;
  if (model) {
    // The read model (docs/search.md#how-it-is-served-a-read-model-in-every-process): its size, its
    // position, how far behind the feed, its build.
    const gauge = (name: string, help: string, read: (s: ReturnType<ReadModel['stats']>) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(model.stats()));
        },
      });
    gauge('read_model_ready', 'Whether the read model is built (1) or still building (0)', (s) =>
      Number(s.ready),
    );
    gauge('read_model_projects', 'Projects in the read model', (s) => s.projects);
    gauge('read_model_tags', 'Tags in the read model', (s) => s.tags);
    gauge('read_model_index_bytes', 'Approximate bytes of the search index', (s) => s.indexBytes);
    gauge('read_model_cache_projects', 'Projects in the detail cache', (s) => s.cacheProjects);
    gauge(
      'read_model_cache_bytes',
      'Approximate bytes of the detail cache (READ_CACHE_MB bounds it)',
      (s) => s.cacheBytes,
    );
    gauge('read_model_build_seconds', 'Time the last build of the read model took', (s) => s.buildSeconds);
    gauge(
      'read_model_position',
      'The change feed position (xid horizon) the read model reflects',
      (s) => s.position,
    );
    gauge(
      'read_model_lag_seconds',
      'How long the read model has not been known to be up to date with the feed',
      (s) => s.lagSeconds,
    );
    gauge(
      'read_model_applied_total',
      'Projects re-read and applied from changes since start',
      (s) => s.applied,
    );
    gauge(
      'read_model_versions',
      'Projects whose applied change the read model remembers (those the change feed may still bring)',
      (s) => s.versions,
    );
  }
  if (options.reads) readsMetrics(registry, options.reads);
  const { pool } = options;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  // The figures of GET /api/discovery/stats, read at scrape time (counters and partial indexes).
  let stats: Promise<Awaited<ReturnType<typeof readQueueStats>> | undefined> | undefined;
  const readStats = () => {
    stats ??= readQueueStats(options.db)
      .catch((err) => {
        // A scrape while the database is away still answers, with the pool and request figures.
        options.logger.warn({ error: (err as Error).message }, 'metrics: cannot read the queue figures');
        return undefined;
      })
      .finally(() => setTimeout(() => (stats = undefined), 0));
    return stats;
  };
  new Gauge({
    name: 'discovery_tasks',
    help: 'Discovery tasks by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const s = await readStats();
      if (s) for (const status of TASK_STATUSES) this.set({ status }, s.counts[status]);
    },
  });
  new Gauge({
    name: 'discovery_queue_tasks',
    help: 'Queue figures: claimable (PENDING, available now), delayed (PENDING, availableAt ahead), leased',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const s = await readStats();
      if (!s) return;
      this.set({ state: 'claimable' }, s.claimable);
      this.set({ state: 'delayed' }, s.delayed);
      this.set({ state: 'leased' }, s.leased);
    },
  });
  new Gauge({
    name: 'discovery_queue_oldest_claimable_age_seconds',
    help: 'Age of the oldest claimable task; 0 when none',
    registers: [registry],
    async collect() {
      const s = await readStats();
      if (s) this.set(s.oldestClaimableAgeSeconds);
    },
  });
  new Gauge({
    name: 'discovery_queue_reaped',
    help: 'Leases expired by the reaper, all processes, since the database was made',
    registers: [registry],
    async collect() {
      const s = await readStats();
      if (s) this.set(s.reapedTotal);
    },
  });
  const queueEvents = new Counter({
    name: 'discovery_queue_events_total',
    help: 'Queue events of this process: tasks claimed, heartbeats, releases, leases reaped, fenced refusals (409 Lease lost)',
    labelNames: ['event'],
    registers: [registry],
  });
  for (const event of QUEUE_EVENTS) queueEvents.inc({ event }, 0);

  changeMetrics(registry, options);

  return {
    countQueue(event: QueueEvent, n: number) {
      queueEvents.inc({ event }, n);
    },
    /** Counts and times a request whose answer is finished. */
    record(req: Request, res: Response, seconds: number) {
      // The route pattern, never the raw path: slugs and ids would make a series per record.
      const route = req.route?.path ?? (req.baseUrl || 'unmatched');
      const labels = { method: req.method, route: String(route), status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    async handler(_req: Request, res: Response) {
      res.setHeader('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}

/**
 * The change feed's webhook side, read from the database at scrape time so that every process
 * reports the whole service: the age of the oldest change still waiting for delivery (the
 * feed lag), deliveries by state and attempts by outcome.
 */
function changeMetrics(registry: Registry, options: { db: Kysely<Database>; logger: Logger }) {
  new Gauge({
    name: 'changes_feed_lag_seconds',
    help: 'Age of the oldest change not yet delivered to an enabled webhook (0 when none waits)',
    registers: [registry],
    async collect() {
      try {
        this.set(await oldestUndeliveredAge(options.db));
      } catch (err) {
        options.logger.warn({ error: (err as Error).message }, 'metrics: cannot read the feed lag');
      }
    },
  });
  const counted = (
    name: string,
    help: string,
    label: string,
    pick: (c: DeliveryCounts) => Record<string, number>,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        try {
          for (const [value, n] of Object.entries(pick(await deliveryCounts(options.db))))
            this.set({ [label]: value }, n);
        } catch (err) {
          options.logger.warn({ error: (err as Error).message }, 'metrics: cannot count deliveries');
        }
      },
    });
  counted(
    'webhook_deliveries',
    'Webhook deliveries by state: PENDING (queued or retrying), DELIVERED, FAILED (gave up)',
    'state',
    (c) => c.deliveries,
  );
  counted(
    'webhook_delivery_attempts',
    'Webhook delivery attempts recorded (retention applies; pings aside), by outcome',
    'outcome',
    (c) => c.attempts,
  );
}
