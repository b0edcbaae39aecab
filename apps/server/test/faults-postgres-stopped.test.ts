import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkInput, newKey, sleep, waitFor } from './faults-helpers.ts';
import { POSTGRES_URL, project, type ServerProcess, slugOf, spawnServer, uniqueUrl } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * A fault the server must survive (docs/operating.md#several-processes-crashes-and-outages): its
 * PostgreSQL server (a private cluster the test creates) stopped and started again under it. Runs
 * only when TEST_DATABASE_URL is set, like the other PostgreSQL tests. The server killed with
 * SIGKILL mid-batch: faults-sigkill.test.ts.
 */

const alive = (s: ServerProcess) => s.child.exitCode === null && s.child.signalCode === null;

/** One request that must be answered within `ms`: a hung server fails the test rather than stalling it. */
async function within(s: ServerProcess, method: string, path: string, body?: unknown, ms = 5_000) {
  const started = Date.now();
  const res = await fetch(s.baseUrl + path, {
    method,
    headers: { 'x-api-key': s.key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ms),
  }).catch(async (err) => {
    await sleep(500); // let a crashed process's exit be seen
    const state = alive(s) ? 'is still running' : `has exited (${s.child.exitCode ?? s.child.signalCode})`;
    throw new Error(
      `${method} ${path}: no answer (${err}; limit ${ms} ms); the server ${state}:\n${s.output()}`,
    );
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, ms: Date.now() - started };
}

const postgres = findPostgres();
const skipReason = !POSTGRES_URL
  ? 'TEST_DATABASE_URL is not set'
  : 'reason' in postgres
    ? postgres.reason
    : undefined;

describe.skipIf(skipReason !== undefined)(
  `a private PostgreSQL stopped and started under a running server${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: PrivateCluster | undefined;
    let server: ServerProcess | undefined;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const key = newKey();

    beforeAll(async () => {
      cluster = await createCluster(postgres as Exclude<typeof postgres, { reason: string }>);
      await cluster.start();
    }, 300_000);

    afterAll(async () => {
      await server?.stop('SIGKILL');
      await cluster?.destroy();
    }, 300_000);

    /** What the server must answer while its database is down. */
    function expectUnavailable(r: { status: number; json: any; text: string; ms: number }) {
      expect(r.status, r.text).toBeGreaterThanOrEqual(500);
      expect(r.status, r.text).toBeLessThan(600);
      expect(r.json).toEqual({
        success: false,
        error: r.status === 503 ? 'Service Unavailable' : 'Internal server error',
        details: [expect.any(String)],
      });
      // No stack, SQL, driver message, address or secret.
      expect(r.text).not.toMatch(
        /\bat .+:\d+|\.ts\b|node_modules|select |insert |update |ECONN|127\.0\.0\.1/i,
      );
      expect(r.text).not.toMatch(/terminat|shutdown|postgres/i);
      expect(r.text).not.toContain(key);
      expect(r.text).not.toContain(password);
    }

    it('answers 5xx in the envelope while PostgreSQL is down and recovers without a restart, twice', async () => {
      const c = cluster!;
      const s = await spawnServer({ DATABASE_URL: c.url(password), WEBHOOK_API_KEY: key, DB_POOL_SIZE: '4' });
      server = s;
      const p = project();
      const created = await within(s, 'POST', '/api/webhook/projects', { projects: [p] });
      expect(created.json).toMatchObject({ success: true, created: 1, failed: 0 });
      let before = await within(s, 'GET', `/api/projects/${slugOf(p)}`);
      expect(before.status).toBe(200);
      expect((await within(s, 'GET', '/healthz')).status).toBe(200);

      for (const mode of ['fast', 'immediate'] as const) {
        // Requests in flight when PostgreSQL goes, held there by a table lock the test takes: a
        // batch (its transaction open, a connection checked out of the pool) and a read.
        const holder = new pg.Client({ connectionString: c.url(password) });
        holder.on('error', () => {});
        await holder.connect();
        await holder.query('begin');
        await holder.query('lock table projects in access exclusive mode');
        const description = `In flight while PostgreSQL stops (${mode}).`;
        const inFlight = Promise.all([
          within(s, 'POST', '/api/webhook/projects', { projects: [{ ...p, description }] }, 60_000),
          within(s, 'GET', `/api/projects/${slugOf(p)}`, undefined, 60_000),
        ]);
        // Watched from another connection: within the holder's transaction pg_stat_activity is a snapshot.
        const watcher = new pg.Client({ connectionString: c.url(password) });
        await watcher.connect();
        await waitFor('the in-flight requests to wait on the lock', async () => {
          const r = await watcher.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock'`);
          return r.rowCount === 2 ? true : undefined;
        });
        await watcher.end();

        await c.stop(mode);
        const stoppedAt = Date.now();
        await holder.end().catch(() => {});
        const [batch, reading] = await inFlight;
        expect(Date.now() - stoppedAt).toBeLessThan(5_000);
        // Usually both fail; either may still have finished if PostgreSQL ran it before its
        // backend got the shutdown signal (the lock holder's backend may die first).
        if (batch.status === 200) expect(batch.json).toMatchObject({ success: true, updated: 1, failed: 0 });
        else expectUnavailable(batch);
        if (reading.status === 200) expect(reading.json).toEqual(before.json);
        else expectUnavailable(reading);

        const [cached, ...down] = await Promise.all([
          within(s, 'GET', `/api/projects/${slugOf(p)}`),
          within(s, 'POST', '/api/webhook/projects', { projects: [project()] }),
          within(s, 'GET', `/api/discovery/tasks?limit=5`),
          within(s, 'POST', '/api/discovery/tasks', { tasks: [{ sourceUrl: uniqueUrl('down') }] }),
        ]);
        for (const r of down) expectUnavailable(r);
        // the read model serves a project it holds without the database
        // (docs/search.md#how-it-is-served-a-read-model-in-every-process)
        if (cached!.status === 200) expect(cached!.json).toEqual(before.json);
        else expectUnavailable(cached!);
        const health = await within(s, 'GET', '/healthz');
        expect(health.status).toBe(503);
        expect(health.json).toEqual({
          success: false,
          error: 'Service Unavailable',
          details: ['The database is not reachable'],
        });
        expect(alive(s)).toBe(true);

        await c.start();
        const restartedAt = Date.now();
        await waitFor(
          '/healthz to answer 200 again',
          async () => ((await within(s, 'GET', '/healthz')).status === 200 ? true : undefined),
          30_000,
        );
        expect(Date.now() - restartedAt).toBeLessThan(30_000);

        const after = await within(s, 'GET', `/api/projects/${slugOf(p)}`);
        expect(after.status).toBe(200);
        // The in-flight update was rolled back with its transaction (unless it committed: then
        // it is there whole).
        if (batch.status === 200 || after.json.data.description === description) {
          const { description: _d, updatedAt: _u, ...unchanged } = after.json.data;
          const { description: _bd, updatedAt: _bu, ...previous } = before.json.data;
          expect(unchanged).toEqual(previous);
          expect(after.json.data.description).toBe(description);
        } else {
          expect(after.json).toEqual(before.json);
        }
        before = after;
        const q = project();
        const write = await within(s, 'POST', '/api/webhook/projects', { projects: [q] });
        expect(write.json).toEqual({
          success: true,
          processed: 1,
          created: 1,
          updated: 0,
          failed: 0,
          errors: [],
          results: [expect.objectContaining({ index: 0, action: 'created', slug: slugOf(q) })],
        });
        const read = await within(s, 'GET', `/api/projects/${slugOf(q)}`);
        expect(read.status).toBe(200);
        expect(read.json.data.links.map((l: LinkInput) => l.url)).toEqual(q.links.map((l) => l.url));
        expect(alive(s)).toBe(true);
      }

      expect(await s.stop('SIGTERM')).toBe(0);
      const out = s.output();
      expect(out).not.toContain(key);
      expect(out).not.toContain(password);
      expect(out).toMatch(/"msg":"health check failed"/);
      expect(out).not.toMatch(/\n\s+at /);
    }, 600_000);
  },
);
