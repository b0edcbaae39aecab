import { getHeapStatistics } from 'node:v8';
import type { QueueEvent, ReadModel } from '@directory/core/server';
import type { Database, Kysely, ReadSources } from '@directory/db';
import type { Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { buildInfo } from './build-info.ts';
import { hostMetrics, processSlot, shareProcessMetrics } from './cluster-metrics.ts';
import type { Logger } from './logger.ts';
import { readsMetrics } from './read-status.ts';
import { serviceMetrics } from './service-metrics.ts';

/** What the pool gauges read: pg.Pool's counters. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const QUEUE_EVENTS: readonly QueueEvent[] = ['claimed', 'heartbeat', 'released', 'reaped', 'fenced'];

/**
 * Prometheus metrics of one app (docs/operating.md#metrics-get-metrics): this process's own
 * series (requests by route and status, count and latency; the read model; the pool; Node's
 * figures), and the whole service's read from the database at scrape time
 * (service-metrics.ts). Under WEB_CONCURRENCY every process's series come together through the
 * primary, each labelled with its process (cluster-metrics.ts). Each app has its own registry,
 * so that several apps in one process (tests) do not share counters.
 */
export function createMetrics(options: {
  db: Kysely<Database>;
  pool?: PoolStats | undefined;
  logger: Logger;
  readModel?: ReadModel | undefined;
  reads?: ReadSources | undefined;
  /** The process's keys: how many it looked up (KeyStore.lookups). */
  keys?: { lookups(): { found: number; unknown: number } } | undefined;
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
    new Counter({
      name: 'read_model_applied_total',
      help: 'Projects re-read and applied from changes since start',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(model.stats().applied);
      },
    });
    gauge(
      'read_model_versions',
      'Projects whose applied change the read model remembers (those the change feed may still bring)',
      (s) => s.versions,
    );
  }
  const { keys } = options;
  if (keys)
    // a rise of `unknown` is someone guessing keys (docs/keys-and-limits.md#rate-limiting)
    new Counter({
      name: 'api_key_lookups_total',
      help: 'Named keys looked up in the database by this process, by result (found, unknown)',
      labelNames: ['result'],
      registers: [registry],
      collect() {
        const { found, unknown } = keys.lookups();
        this.reset();
        this.inc({ result: 'found' }, found);
        this.inc({ result: 'unknown' }, unknown);
      },
    });
  readsMetrics(registry, options.reads);
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
  const queueEvents = new Counter({
    name: 'discovery_queue_events_total',
    help: 'Queue events of this process: tasks claimed, heartbeats, releases, leases reaped, fenced refusals (409 Lease lost)',
    labelNames: ['event'],
    registers: [registry],
  });
  for (const event of QUEUE_EVENTS) queueEvents.inc({ event }, 0);
  new Gauge({
    name: 'nodejs_heap_size_limit_bytes',
    help: "V8's heap limit: the process ends when its heap reaches it (--max-old-space-size)",
    registers: [registry],
    collect() {
      this.set(getHeapStatistics().heap_size_limit);
    },
  });
  const build = buildInfo();
  new Gauge({
    name: 'build_info',
    help: 'The version and commit of the server that answers (always 1)',
    labelNames: ['version', 'commit'],
    registers: [registry],
  }).set(build, 1);

  // The whole service's figures, read from the database once a scrape by the process answering.
  const service = new Registry();
  serviceMetrics(service, options);
  // Several processes on one port: the primary gathers every process's series (cluster-metrics.ts).
  const slot = processSlot();
  if (slot !== undefined) {
    registry.setDefaultLabels({ process: slot });
    shareProcessMetrics(registry);
  } else {
    // one process: the figure the primary gives of several (cluster-metrics.ts)
    new Gauge({
      name: 'server_processes_reporting',
      help: 'Server processes of this host whose series this scrape includes',
      registers: [registry],
    }).set(1);
  }

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
      const processes = slot === undefined ? registry.metrics() : hostMetrics();
      const [own, shared] = await Promise.all([processes, service.metrics()]);
      res.setHeader('Content-Type', registry.contentType);
      res.send(`${own.trimEnd()}\n\n${shared}`);
    },
  };
}
