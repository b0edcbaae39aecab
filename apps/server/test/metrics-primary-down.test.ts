import { get } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * A primary that is down is seen (docs/operating.md#metrics-get-metrics): `db_primary_up` is 0 within
 * 5 s of stopping PostgreSQL under a host of WEB_CONCURRENCY=2, and 1 again once it is back; the
 * standby-less lag stays a number throughout. A private cluster, so that stopping it stops no one else.
 */

const postgres = findPostgres();
const skipReason = 'reason' in postgres ? postgres.reason : undefined;
const KEY = 'metrics-primary-down-key';

/** db_primary_up of a scrape on a new connection (either process may take it); NaN when none came. */
function primaryUp(base: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(`${base}/metrics`, { agent: false, headers: { 'x-api-key': KEY } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve(Number(/^db_primary_up (\S+)$/m.exec(text)?.[1] ?? Number.NaN)));
    });
    req.setTimeout(4_000, () => req.destroy());
    req.once('error', () => resolve(Number.NaN));
  });
}

/** Scrapes until `want`, at most `ms`; the time it took. */
async function until(base: string, want: number, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if ((await primaryUp(base)) === want) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`db_primary_up was not ${want} within ${ms} ms`);
}

describe.skipIf(skipReason !== undefined)(
  `db_primary_up while PostgreSQL is stopped${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: PrivateCluster | undefined;
    afterAll(async () => {
      await cluster?.destroy();
    }, 120_000);

    it('is 0 within 5 s of the primary stopping, and 1 once it is back', async () => {
      cluster = await createCluster(postgres as Exclude<typeof postgres, { reason: string }>);
      await cluster.start();
      const server = await spawnServer({
        DATABASE_URL: cluster.url('x'),
        WEB_CONCURRENCY: '2',
        WEBHOOK_API_KEY: KEY,
        DB_CONNECT_TIMEOUT_MS: '1000',
      });
      try {
        await until(server.baseUrl, 1, 60_000);
        await cluster.stop('fast');
        expect(await until(server.baseUrl, 0, 5_000)).toBeLessThanOrEqual(5_000);
        // every scrape while it is down says so (whichever process takes it)
        for (let i = 0; i < 4; i++) expect(await primaryUp(server.baseUrl)).toBe(0);
        await cluster.start();
        await until(server.baseUrl, 1, 30_000);
      } finally {
        await server.stop();
      }
    }, 180_000);
  },
);
