import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
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

const KEY = 'gap-free-test-key';
const position = (cursor: string) => Buffer.from(cursor, 'base64url').toString('latin1');

interface Load {
  writes: number;
  concurrency: number;
  /** Transactions opened straight on the database, held open while others commit. */
  heldOpen: number;
}

/**
 * Writes of every kind through the servers (round robin), refused ones among them, while
 * transactions on the database itself stay open for a while and then commit or roll back.
 * Returns the task ids written by the rolled-back transactions.
 */
async function writeLoad(
  servers: Client[],
  databaseUrl: string,
  load: Load,
): Promise<{ rolledBack: string[] }> {
  let next = 0;
  const slugs: string[] = [];
  const taskIds: string[] = [];
  async function one(i: number) {
    const s = servers[i % servers.length]!;
    const kind = i % 10;
    if (kind <= 2) {
      const batch = Array.from({ length: 1 + (i % 3) }, () => project());
      const r = await s.call('POST', '/api/webhook/projects', { body: { projects: batch } });
      expect(r.status).toBe(200);
      slugs.push(...batch.map(slugOf));
    } else if (kind === 3 && slugs.length > 0) {
      // an update of an existing project (same identity, new description)
      const r = await s.call('POST', '/api/webhook/projects', {
        body: { projects: [project({ nameEn: slugs[i % slugs.length]!.replace(/-/g, ' ') })] },
      });
      expect(r.status).toBe(200);
    } else if (kind <= 5) {
      const r = await s.call('POST', '/api/discovery/tasks', {
        body: { tasks: [{ sourceUrl: uniqueUrl('gap') }, { sourceUrl: uniqueUrl('gap') }] },
      });
      expect(r.status).toBe(200);
    } else if (kind === 6 && taskIds.length > 0) {
      const id = taskIds.shift()!;
      const r = await s.call('PATCH', `/api/discovery/tasks/${id}`, { body: { status: 'IN_PROGRESS' } });
      expect([200, 409]).toContain(r.status);
    } else if (kind === 7 && slugs.length > 5) {
      const slug = slugs.splice(i % slugs.length, 1)[0]!;
      const r = await s.call('DELETE', `/api/projects/${slug}`);
      expect([200, 404]).toContain(r.status);
    } else if (kind === 8) {
      // refused: one invalid project fails the whole batch
      const r = await s.call('POST', '/api/webhook/projects', {
        body: { projects: [project(), { name: '' }] },
      });
      expect(r.status).toBe(400);
    } else {
      const list = await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=5');
      taskIds.push(...list.json.tasks.map((t: { id: string }) => t.id));
      const r = await s.call('PATCH', '/api/discovery/tasks/no-such-task', { body: { status: 'FAILED' } });
      expect(r.status).toBe(404);
    }
  }
  const workers = Array.from({ length: load.concurrency }, async () => {
    for (let i = next++; i < load.writes; i = next++) await one(i);
  });

  const rolledBack: string[] = [];
  const held = Array.from({ length: load.heldOpen }, async (_, n) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      await new Promise((r) => setTimeout(r, 50 * n));
      await c.query('begin');
      const id = `held-${n}-${Math.random().toString(36).slice(2)}`;
      await c.query('insert into discovery_tasks (id, source_url) values ($1, $2)', [id, uniqueUrl('held')]);
      // Later transactions commit while this one, with a smaller xid, is still open.
      await new Promise((r) => setTimeout(r, 300 + 200 * (n % 5)));
      if (n % 3 === 0) {
        await c.query('rollback');
        rolledBack.push(id);
      } else await c.query('commit');
    } finally {
      await c.end();
    }
  });
  await Promise.all([...workers, ...held]);
  return { rolledBack };
}

/** Reads the feed with small pages and long-polls until told to stop and caught up to `total()`. */
async function follow(s: Client, done: () => number | undefined): Promise<string[]> {
  const seen: string[] = [];
  let after = '';
  for (;;) {
    const r = await s.call('GET', `/api/changes?limit=7&wait=1${after ? `&after=${after}` : ''}`);
    expect(r.status).toBe(200);
    seen.push(...r.json.changes.map((c: { cursor: string }) => c.cursor));
    after = r.json.nextCursor;
    const total = done();
    if (total !== undefined && seen.length >= total && r.json.changes.length === 0) return seen;
  }
}

async function expectGapFree(servers: Client[], databaseUrl: string, load: Load) {
  let total: number | undefined;
  const followers = [follow(servers[0]!, () => total), follow(servers.at(-1)!, () => total)];
  const { rolledBack } = await writeLoad(servers, databaseUrl, load);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ p: string; task_id: string | null }>(
    `select 'c1.' || xid || '.' || id as p, task_id from changes order by xid, id`,
  );
  const tasks = await db.query('select count(*)::int as n from discovery_tasks');
  const created = await db.query(`select count(*)::int as n from changes where type = 'task.created'`);
  await db.end();
  total = rows.length;
  const expected = rows.map((r) => r.p);
  // Every committed task write has its change, nothing of the rolled-back transactions does.
  expect(created.rows[0].n).toBe(tasks.rows[0].n);
  expect(rows.filter((r) => r.task_id !== null && rolledBack.includes(r.task_id))).toEqual([]);
  expect(rolledBack.length).toBeGreaterThan(0);
  for (const seen of await Promise.all(followers)) {
    // Exactly once each, in the feed's order: the whole committed history.
    expect(seen.map(position)).toEqual(expected);
  }
  return expected.length;
}

describe.runIf(POSTGRES_URL)('the change feed is gap-free across two server processes on PostgreSQL', () => {
  const servers: ServerProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await drop?.();
  });

  it('5,000 concurrent writes, some transactions held open: each follower sees every change once', async () => {
    const fresh = await freshPostgresDatabase();
    drop = fresh.drop;
    const env = { DATABASE_URL: fresh.url, WEBHOOK_API_KEY: KEY };
    servers.push(await spawnServer(env), await spawnServer(env));
    const n = await expectGapFree(servers, fresh.url, { writes: 5_000, concurrency: 24, heldOpen: 12 });
    expect(n).toBeGreaterThan(5_000);
  }, 300_000);
});

describe('the change feed is gap-free on PGlite', () => {
  let server: ServerProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'changes-gap-free-'));
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('1,000 concurrent writes: each follower sees every change once', async () => {
    server = await spawnServer({ DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: KEY });
    // PGlite takes no second connection: no transactions held open from outside here.
    expect(await expectGapFreeLite(server, { writes: 1_000, concurrency: 8, heldOpen: 0 })).toBeGreaterThan(
      1_000,
    );
  }, 120_000);
});

/** PGlite: the ground truth is read through the feed's owner, the only process with the database. */
async function expectGapFreeLite(s: ServerProcess, load: Load): Promise<number> {
  let total: number | undefined;
  const followers = [follow(s, () => total), follow(s, () => total)];
  await writeLoad([s], '', load);
  // The third read, from the start after everything committed, is the reference.
  const all: string[] = [];
  let after = '';
  for (;;) {
    const r = await s.call('GET', `/api/changes?limit=1000${after ? `&after=${after}` : ''}`);
    all.push(...r.json.changes.map((c: { cursor: string }) => c.cursor));
    after = r.json.nextCursor;
    if (!r.json.hasMore) break;
  }
  total = all.length;
  for (const seen of await Promise.all(followers)) expect(seen).toEqual(all);
  return all.length;
}
