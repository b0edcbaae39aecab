import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  type ServerProcess,
  slugOf,
  spawnServer,
  uniqueUrl,
} from './helpers.ts';

/**
 * The queue across real processes on one PostgreSQL: two server processes (each with its
 * reaper), workers talking to both, and a worker process killed while it holds leases.
 */
describe.skipIf(!POSTGRES_URL)('the task queue across processes on PostgreSQL', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: key,
      TASK_REAP_INTERVAL_MS: '250',
      TASK_BACKOFF_BASE_MS: '100',
      TASK_BACKOFF_MAX_MS: '200',
    };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await pool?.end();
    await database?.drop();
  });

  const sql = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows;
  async function createTasks(server: Client, n: number): Promise<void> {
    for (let i = 0; i < n; i += 50) {
      const tasks = Array.from({ length: Math.min(50, n - i) }, () => ({ sourceUrl: uniqueUrl('proc') }));
      expect((await server.call('POST', '/api/discovery/tasks', { body: { tasks } })).status).toBe(200);
    }
  }
  const claimVia = async (server: Client, body: Record<string, unknown>) => {
    const r = await server.call('POST', '/api/discovery/tasks/claim', { body });
    expect(r.status, r.text).toBe(200);
    return r.json.tasks as { id: string; leaseToken: string }[];
  };

  it('4 workers × batch 10 claim 2,000 tasks across two processes: each task exactly once', async () => {
    await createTasks(a, 2000);
    const claimed: string[] = [];
    await Promise.all(
      [a, b, a, b].map(async (server, w) => {
        for (;;) {
          const got = await claimVia(server, { limit: 10, leaseSeconds: 600, worker: `w${w}` });
          if (got.length === 0) return;
          claimed.push(...got.map((t) => t.id));
        }
      }),
    );
    expect(claimed).toHaveLength(2000);
    expect(new Set(claimed).size).toBe(2000);
    const [row] = await sql(
      `select count(*)::int as n from discovery_tasks where status = 'IN_PROGRESS' and attempt = 1`,
    );
    expect(row.n).toBe(2000);
    await sql(
      `update discovery_tasks set status = 'COMPLETED', completed_at = now(), lease_token = null, lease_expires_at = null`,
    );
  }, 120_000);

  it('a worker killed holding leases: its tasks come back, are done once by another worker, its tokens are dead', async () => {
    await createTasks(b, 5);
    // the worker: claims through process A, prints its leases, then works "forever"
    const script = `
      const r = await fetch(process.argv[1] + '/api/discovery/tasks/claim', {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': process.argv[2] },
        body: JSON.stringify({ limit: 5, leaseSeconds: 5, worker: 'doomed' }) });
      console.log(JSON.stringify((await r.json()).tasks));
      setInterval(() => {}, 1000);`;
    const worker = spawn(process.execPath, ['--input-type=module', '-e', script, a.baseUrl, key], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      worker.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
    });
    const held = JSON.parse(line) as { id: string; leaseToken: string }[];
    expect(held).toHaveLength(5);
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));

    // after expiry (5 s) a reaper, in whichever process, puts them back
    const ids = held.map((t) => t.id);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await sql(`select status from discovery_tasks where id = any($1)`, [ids]);
      if (rows.every((r) => r.status === 'PENDING')) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    // another worker, through process B, completes each exactly once
    const done = new Map<string, string>();
    while (done.size < 5) {
      for (const t of await claimVia(b, { limit: 5, leaseSeconds: 60, worker: 'survivor', wait: 2 })) {
        const p = project();
        const r = await b.call('POST', `/api/discovery/tasks/${t.id}/complete`, {
          body: { explorationData: p, leaseToken: t.leaseToken },
        });
        expect(r.status, r.text).toBe(200);
        expect(done.has(t.id)).toBe(false);
        done.set(t.id, r.json.projectId);
      }
    }
    expect([...done.keys()].sort()).toEqual([...ids].sort());
    const rows = await sql(
      `select status, attempt, retry_count, worker from discovery_tasks where id = any($1)`,
      [ids],
    );
    expect(rows.every((r) => r.status === 'COMPLETED' && r.attempt === 2 && r.retry_count === 1)).toBe(true);

    // the dead worker's tokens: 409 on heartbeat, PATCH and complete, and no project written
    for (const t of held) {
      for (const server of [a, b]) {
        const beat = await server.call('POST', `/api/discovery/tasks/${t.id}/heartbeat`, {
          body: { leaseToken: t.leaseToken },
        });
        expect(beat.status).toBe(409);
        expect(beat.json.details[0]).toMatch(/^Lease lost: /);
        const patch = await server.call('PATCH', `/api/discovery/tasks/${t.id}`, {
          body: { status: 'FAILED', leaseToken: t.leaseToken },
        });
        expect(patch.status).toBe(409);
        const p = project();
        const complete = await server.call('POST', `/api/discovery/tasks/${t.id}/complete`, {
          body: { explorationData: p, leaseToken: t.leaseToken },
        });
        expect(complete.status).toBe(409);
        expect((await server.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
      }
    }
    const [{ n }] = await sql(`select count(*)::int as n from projects`);
    expect(n).toBe(5);
    const metrics = (await a.call('GET', '/metrics')).text;
    expect(metrics).toMatch(/discovery_queue_events_total\{event="fenced"\} [1-9]/);
  }, 60_000);

  it('two processes reaping at once never both reap one task', async () => {
    const [before] = await sql(`select value::int as n from queue_totals where name = 'reaped'`);
    await createTasks(a, 100);
    const held = [
      ...(await claimVia(a, { limit: 50, leaseSeconds: 600 })),
      ...(await claimVia(b, { limit: 50, leaseSeconds: 600 })),
    ];
    expect(held).toHaveLength(100);
    const ids = held.map((t) => t.id);
    // every lease ends now: both reapers (every 250 ms) find them
    await sql(
      `update discovery_tasks set lease_expires_at = now() - interval '1 second' where id = any($1)`,
      [ids],
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await sql(
        `select count(*)::int as n from discovery_tasks where id = any($1) and status = 'PENDING'`,
        [ids],
      );
      if (rows[0].n === 100) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 600));
    const rows = await sql(`select retry_count from discovery_tasks where id = any($1)`, [ids]);
    expect(rows.every((r) => r.retry_count === 1)).toBe(true);
    const [after] = await sql(`select value::int as n from queue_totals where name = 'reaped'`);
    expect(after.n - before.n).toBe(100);
  }, 60_000);
});
