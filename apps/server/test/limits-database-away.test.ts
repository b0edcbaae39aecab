import type { AddressInfo } from 'node:net';
import { connect, type DatabaseHandle, migrateToLatest } from '@directory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createHttpServer, readModelOf } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { STORE_TIMEOUT_MS } from '../src/rate-limit.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * Rate limits while the database is away (docs/keys-and-limits.md#while-the-database-is-away): a
 * private PostgreSQL stopped (refusing connections), then stalled with SIGSTOP (accepting and
 * answering nothing). Over-limit requests are refused, and no request waits on the count longer
 * than STORE_TIMEOUT_MS.
 */

const postgres = findPostgres();
const skipReason = 'reason' in postgres ? postgres.reason : undefined;
const LIMIT = 5;
const REQUESTS = 12;
/** What a request may take beyond the limiter's wait, on a busy machine. */
const SLACK_MS = 250;

describe.skipIf(skipReason !== undefined)(
  `rate limits while the database is away${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: PrivateCluster;
    let handle: DatabaseHandle;
    let stalled = false;

    beforeAll(async () => {
      cluster = await createCluster(postgres as Exclude<typeof postgres, { reason: string }>);
      await cluster.start();
      handle = await connect(cluster.url('x'), { poolSize: 4, connectTimeoutMs: 60_000 });
      await migrateToLatest(handle.db);
    }, 300_000);

    afterAll(async () => {
      if (stalled) cluster?.signal('SIGCONT');
      await handle?.close().catch(() => {});
      await cluster?.destroy();
    }, 120_000);

    /** An app over the cluster (its read model built), limited to LIMIT requests a minute per address. */
    async function serve(processes: number) {
      const app = createApp({
        db: handle.db,
        pool: handle.pool,
        apiKey: 'limits-away-key-0123456789',
        rateLimitPool: handle.pool,
        rateLimit: { windowMs: 60_000, perAddress: LIMIT, perKey: 0, processes },
        logger: createLogger('silent'),
        bodyLimitBytes: 1024 * 1024,
        webDir: false,
      });
      const model = readModelOf(app);
      await model.start();
      const server = createHttpServer(app).listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const { port } = server.address() as AddressInfo;
      return {
        /** REQUESTS requests without a key, one after another: their statuses and durations. */
        async burst() {
          const answers: { status: number; ms: number }[] = [];
          for (let i = 0; i < REQUESTS; i++) {
            const started = performance.now();
            const res = await fetch(`http://127.0.0.1:${port}/api/projects?limit=1`, {
              signal: AbortSignal.timeout(10_000),
            });
            await res.arrayBuffer();
            answers.push({ status: res.status, ms: performance.now() - started });
          }
          return answers;
        },
        async close() {
          await model.stop();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        },
      };
    }

    function expectLimited(answers: { status: number; ms: number }[], share: number) {
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200).length, String(statuses)).toBe(share);
      expect(statuses.filter((s) => s === 429).length, String(statuses)).toBe(REQUESTS - share);
      const slowest = Math.max(...answers.map((a) => a.ms));
      expect(slowest, answers.map((a) => Math.round(a.ms)).join(' ')).toBeLessThan(
        STORE_TIMEOUT_MS + SLACK_MS,
      );
    }

    it('stopped (refusing connections): over-limit requests are refused at once', async () => {
      const s = await serve(1);
      try {
        await cluster.stop('fast');
        expectLimited(await s.burst(), LIMIT);
      } finally {
        await s.close();
        await cluster.start();
      }
    }, 120_000);

    it('accepting and answering nothing: over-limit requests are refused within the wait', async () => {
      // two processes share the limit: each counts on its own at its half
      const s = await serve(2);
      try {
        cluster.signal('SIGSTOP');
        stalled = true;
        expectLimited(await s.burst(), Math.floor(LIMIT / 2));
      } finally {
        cluster.signal('SIGCONT');
        stalled = false;
        await s.close();
      }
    }, 120_000);
  },
);
