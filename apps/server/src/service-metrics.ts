import { readQueueStats } from '@directory/core/server';
import { type Database, deliveryCounts, type Kysely, oldestUndeliveredAge, sql } from '@directory/db';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from './logger.ts';

type DeliveryCounts = Awaited<ReturnType<typeof deliveryCounts>>;

const TASK_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;

/** How long a scrape waits for the primary to answer `select 1` before it counts as down. */
const PRIMARY_PROBE_MS = 1_000;

/**
 * The whole service's figures, read from the database at scrape time: the same whichever
 * process answers, so they carry no process label (docs/operating.md#metrics-get-metrics).
 * Whether the primary answers, the queue (GET /api/discovery/stats), the webhooks.
 */
export function serviceMetrics(registry: Registry, options: { db: Kysely<Database>; logger: Logger }) {
  const { db, logger } = options;
  new Gauge({
    name: 'db_primary_up',
    help: 'Whether the primary database answered this scrape within 1 s (1) or not (0)',
    registers: [registry],
    async collect() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), PRIMARY_PROBE_MS);
      });
      const probe = sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
      this.set(Number(await Promise.race([probe, timeout])));
      clearTimeout(timer);
    },
  });

  // The figures of GET /api/discovery/stats, read once a scrape (counters and partial indexes).
  let stats: Promise<Awaited<ReturnType<typeof readQueueStats>> | undefined> | undefined;
  const readStats = () => {
    stats ??= readQueueStats(db)
      .catch((err) => {
        // A scrape while the database is away still answers, with the pool and request figures.
        logger.warn({ error: (err as Error).message }, 'metrics: cannot read the queue figures');
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
  new Counter({
    name: 'discovery_queue_reaped_total',
    help: 'Leases expired by the reaper, all processes, since the database was made',
    registers: [registry],
    async collect() {
      const s = await readStats();
      if (!s) return;
      this.reset();
      this.inc(s.reapedTotal);
    },
  });

  new Gauge({
    name: 'changes_feed_lag_seconds',
    help: 'Age of the oldest change not yet delivered to an enabled webhook (0 when none waits)',
    registers: [registry],
    async collect() {
      try {
        this.set(await oldestUndeliveredAge(db));
      } catch (err) {
        logger.warn({ error: (err as Error).message }, 'metrics: cannot read the feed lag');
      }
    },
  });
  // Deliveries and attempts, counted once a scrape for both gauges.
  let counts: Promise<DeliveryCounts | undefined> | undefined;
  const readCounts = () => {
    counts ??= deliveryCounts(db)
      .catch((err) => {
        logger.warn({ error: (err as Error).message }, 'metrics: cannot count deliveries');
        return undefined;
      })
      .finally(() => setTimeout(() => (counts = undefined), 0));
    return counts;
  };
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
        const c = await readCounts();
        if (c) for (const [value, n] of Object.entries(pick(c))) this.set({ [label]: value }, n);
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
  new Gauge({
    name: 'webhooks_disabled',
    help: 'Webhooks that are disabled (by their owner, or after giving up on their deliveries)',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from webhooks where not enabled`.execute(db);
        this.set(rows[0]?.n ?? 0);
      } catch (err) {
        logger.warn({ error: (err as Error).message }, 'metrics: cannot count webhooks');
      }
    },
  });
}
