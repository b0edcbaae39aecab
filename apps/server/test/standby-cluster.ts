import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type Client, type Reply, type ServerProcess, spawnServer } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * The cluster of standby.test.ts (docs/operating.md#standbys): a private primary and a streaming
 * standby of it (initdb, then pg_basebackup -R -X stream), two server processes that read from the
 * standby, and the test's own queries and waits. The tests of standby-read-your-writes.ts and
 * standby-outages.ts run on the one cluster standby.test.ts starts, not each on its own.
 */

export const postgres = findPostgres();
export const skipReason = 'reason' in postgres ? postgres.reason : undefined;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const MAX_LAG_MS = 1_000;

export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The primary, the standby and the two processes (once beforeAll has run), and the tests' helpers. */
export interface StandbyCluster {
  readonly primary: PrivateCluster;
  readonly standby: PrivateCluster;
  readonly a: ServerProcess;
  readonly b: ServerProcess;
  /** A query on the primary or the standby, on a connection of its own. */
  sql(cluster: PrivateCluster, text: string, values?: unknown[]): Promise<any[]>;
  /** Where the process reads now ('standby 1' or 'primary'), and its position. */
  reads(s: Client): Promise<{ from: string; position: number }>;
  upsert(s: Client, projects: unknown[]): Promise<Reply>;
  /** A word no other test writes. */
  word(): string;
}

/**
 * The cluster of a describe block: created and started in its beforeAll, the processes killed
 * and the clusters destroyed in its afterAll; in a describe skipped when `skipReason` is set (its
 * hooks need the PostgreSQL tools findPostgres found).
 */
export function useStandbyCluster(): StandbyCluster {
  const tools = postgres as Exclude<typeof postgres, { reason: string }>;
  const key = `standby-key-${randomBytes(6).toString('hex')}`;
  let primary: PrivateCluster;
  let standby: PrivateCluster;
  let a: ServerProcess;
  let b: ServerProcess;
  const sql = async (cluster: PrivateCluster, text: string, values: unknown[] = []) => {
    const c = new pg.Client({ connectionString: cluster.url('x', 'directory') });
    c.on('error', () => {});
    await c.connect();
    try {
      return (await c.query(text, values)).rows;
    } finally {
      await c.end().catch(() => {});
    }
  };

  beforeAll(async () => {
    primary = await createCluster(tools);
    await primary.start();
    const admin = new pg.Client({ connectionString: primary.url('x') });
    await admin.connect();
    await admin.query('create database directory');
    await admin.end();
    standby = await createCluster(tools, {
      standbyOf: primary,
      settings: ['hot_standby_feedback=on', 'wal_retrieve_retry_interval=200ms'],
    });
    await standby.start();
    const env = {
      DATABASE_URL: primary.url('x', 'directory'),
      DATABASE_READ_URL: standby.url('x', 'directory'),
      READ_MAX_LAG_MS: String(MAX_LAG_MS),
      WEBHOOK_API_KEY: key,
      DB_POOL_SIZE: '4',
      TASK_REAP_INTERVAL_MS: '0',
    };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    await Promise.all([ready(a), ready(b)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop('SIGKILL')));
    await standby?.destroy();
    await primary?.destroy();
  }, 60_000);

  async function ready(s: Client) {
    await waitFor(
      '/healthz 200',
      async () => ((await s.call('GET', '/healthz', { key: false })).status === 200 ? true : undefined),
      60_000,
    );
  }

  async function reads(s: Client): Promise<{ from: string; position: number }> {
    const r = await s.call('GET', '/healthz?verbose=1', { key: false });
    return { from: r.json?.reads?.from, position: r.json?.position };
  }

  const upsert = (s: Client, projects: unknown[]) =>
    s.call('POST', '/api/webhook/projects', { body: { projects } });
  const word = () => `w${randomBytes(5).toString('hex').replace(/\d/g, 'q')}`;

  return {
    get primary() {
      return primary;
    },
    get standby() {
      return standby;
    },
    get a() {
      return a;
    },
    get b() {
      return b;
    },
    sql,
    reads,
    upsert,
    word,
  };
}
