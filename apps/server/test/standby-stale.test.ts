import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, project, type ServerProcess, spawnServer } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * Never older than the model (docs/operating.md#never-older-than-the-model): a process whose
 * model applied version TWO of a project, on a primary and a hot standby whose replay is
 * paused at version ONE. The primary then stops answering (SIGSTOP), and comes back: version
 * ONE is never answered, by the project's page or by a list, before or after.
 */

const postgres = findPostgres();
const skipReason = 'reason' in postgres ? postgres.reason : undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_LAG_MS = 1_000;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

describe.skipIf(skipReason !== undefined)(
  `a stale standby and an unresponsive primary${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const tools = postgres as Exclude<typeof postgres, { reason: string }>;
    const key = `stale-key-${randomBytes(6).toString('hex')}`;
    let primary: PrivateCluster;
    let standby: PrivateCluster;
    let a: ServerProcess;
    let stopped = false;
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
      a = await spawnServer({
        DATABASE_URL: primary.url('x', 'directory'),
        DATABASE_READ_URL: standby.url('x', 'directory'),
        READ_MAX_LAG_MS: String(MAX_LAG_MS),
        WEBHOOK_API_KEY: key,
        DB_POOL_SIZE: '4',
        DB_CONNECT_TIMEOUT_MS: '1000',
        TASK_REAP_INTERVAL_MS: '0',
      });
      await waitFor('reads from the standby', async () =>
        (await readsFrom(a)) === 'standby 1' ? true : undefined,
      );
    }, 180_000);

    afterAll(async () => {
      if (stopped) primary?.signal('SIGCONT');
      await a?.stop('SIGKILL');
      await standby?.destroy();
      await primary?.destroy();
    }, 60_000);

    async function readsFrom(s: Client): Promise<string | undefined> {
      const r = await s.call('GET', '/healthz?verbose=1', { key: false });
      return r.json?.reads?.from;
    }

    type Answer = { status: number; retryAfter: string | null; text: string };
    async function get(path: string): Promise<Answer> {
      const res = await fetch(`${a.baseUrl}${path}`, { signal: AbortSignal.timeout(60_000) });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
    }

    it('answers version TWO or 503, never version ONE, while the primary is away and after', async () => {
      const w = `w${randomBytes(5).toString('hex').replace(/\d/g, 'q')}`;
      const p = project({ nameEn: `Stale ${w}`, description: `VERSION ONE of ${w}.` });
      const created = await a.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
      expect(created.status, created.text).toBe(200);
      const slug = created.json.results[0].slug as string;
      await waitFor('the standby has version ONE', async () =>
        (await sql(standby, 'select 1 from projects where slug = $1', [slug])).length === 1
          ? true
          : undefined,
      );
      await sql(standby, 'select pg_wal_replay_pause()');
      const two = `VERSION TWO of ${w}.`;
      const updated = await a.call('POST', '/api/webhook/projects', {
        body: { projects: [{ ...p, description: two }] },
      });
      expect(updated.json).toMatchObject({ updated: 1, failed: 0 });
      // the standby falls behind past the limit: reads go to the primary, and the own write is
      // forgotten there (the primary shows it)
      await waitFor('reads from the primary', async () =>
        (await readsFrom(a)) === 'primary' ? true : undefined,
      );
      await sleep(600);

      primary.signal('SIGSTOP');
      stopped = true;
      let pending: Promise<Answer>[] = [];
      try {
        // the monitor gives the primary up after 1 s; then reads are routed again
        await sleep(3_000);
        pending = [`/api/projects/${slug}`, `/api/projects?q=${w}&limit=5`].map(get);
        // answered while the primary is stopped, or held on a connection to it until it is back
        await Promise.race([Promise.all(pending), sleep(5_000)]);
      } finally {
        primary.signal('SIGCONT');
        stopped = false;
      }
      for (const r of await Promise.all(pending)) {
        expect(r.text).not.toContain('VERSION ONE');
        if (r.status === 503) expect(r.retryAfter).not.toBeNull();
        else expect(r.status, r.text).toBe(200);
      }

      await sql(standby, 'select pg_wal_replay_resume()');
      await waitFor('the standby has version TWO', async () =>
        (await sql(standby, 'select 1 from projects where slug = $1 and description = $2', [slug, two]))
          .length === 1
          ? true
          : undefined,
      );
      await waitFor('reads from the standby', async () =>
        (await readsFrom(a)) === 'standby 1' ? true : undefined,
      );
      for (let i = 0; i < 3; i++) {
        const one = await a.call('GET', `/api/projects/${slug}`, { key: false });
        expect(one.status, one.text).toBe(200);
        expect(one.json.data.description).toBe(two);
        const page = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
        expect(page.json.projects.find((x: any) => x.slug === slug)?.description).toBe(two);
      }
    }, 120_000);
  },
);
