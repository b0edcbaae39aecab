import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect, MOVED_TABLES } from '@directory/db';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterAll } from './cleanups.ts';
import { readAll, receiver } from './feed-receivers.ts';
import { freshPostgresDatabase, POSTGRES_URL, project, slugOf, spawnServer } from './helpers.ts';
import { seedEverything } from './move-seed.ts';

/*
 * `pnpm db:move` (docs/operating.md#moving-to-postgresql): an embedded directory holding every kind
 * of row, written through the API, moved into a new PostgreSQL database: the same rows table by
 * table, the same answers from a server on each, a follower going on with its cursor, and the
 * refusals (a server holding the directory, a target that is not empty). PostgreSQL only.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const skipReason = POSTGRES_URL ? undefined : 'TEST_DATABASE_URL is not set: the move goes into PostgreSQL';
const KEY = 'move-test-key-0123456789';
const ENV = { WEBHOOK_API_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '100' };

async function move(from: string, to: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/move-cli.ts', '--from', from, '--to', to],
      { cwd: ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every row of every moved table, as JSON text in UTC, sorted: the same on both sides, or not. */
async function rowsOf(url: string): Promise<Record<string, string[]>> {
  const handle = await connect(url, { poolSize: 1 });
  try {
    const out: Record<string, string[]> = {};
    await handle.pool.query(`set timezone = 'UTC'`);
    for (const { name } of MOVED_TABLES) {
      const { rows } = await handle.pool.query<{ r: string }>(
        `select row_to_json(t)::text as r from ${name} t`,
      );
      out[name] = rows.map((x) => x.r).sort();
    }
    return out;
  } finally {
    await handle.close();
  }
}

async function count(url: string, table: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(`select count(*) as n from ${table}`)).rows[0].n);
  } finally {
    await c.end();
  }
}

describe.skipIf(skipReason !== undefined)(
  `moving an embedded directory to PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const cleanups = cleanupsAfterAll(120_000);

    it('copies every row, serves the same answers, keeps a follower going, and refuses what it must', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'move-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const source = `pglite:${dir}`;
      const hook = await receiver();
      cleanups.push(() => hook.close());
      const a = await spawnServer({ ...ENV, DATABASE_URL: source });
      cleanups.push(() => a.stop('SIGKILL'));
      const slugs = await seedEverything(a, hook.url, hook.received);
      const followed = await readAll(a);
      const target = await freshPostgresDatabase();
      cleanups.push(() => target.drop());

      // a running server holds the directory: refused, and nothing made in the target
      const held = await move(source, target.url);
      expect(held.code, held.stderr).toBe(1);
      expect(held.stderr).toMatch(/in use by another process \(pid \d+\)\. Stop the server, then move\./);
      await expect(count(target.url, 'projects')).rejects.toThrow(/does not exist/);
      await a.stop('SIGTERM');

      const moved = await move(source, target.url);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toMatch(/every row read back from the target matches the source/);
      expect(moved.stdout).toMatch(/change ids moved on by 10\^12/);
      expect(moved.stderr).toMatch(/project_revisions: \d+ rows copied/);

      // table by table, read here independently of the mover
      const [before, after] = [await rowsOf(source), await rowsOf(target.url)];
      // the feed's state names the cluster it was last written on: the target's own after the move
      const cluster = (rows: Record<string, string[]>) => JSON.parse(rows.change_feed_state![0]!).cluster;
      expect(cluster(after)).not.toBe(cluster(before));
      const withoutCluster = (rows: Record<string, string[]>) =>
        (rows.change_feed_state = rows.change_feed_state!.map((r) =>
          JSON.stringify({ ...JSON.parse(r), cluster: 0 }),
        ));
      withoutCluster(before);
      withoutCluster(after);
      for (const { name } of MOVED_TABLES) {
        expect(after[name], name).toEqual(before[name]);
        // the seed holds every kind of row (rate limits only with a limited key)
        if (name !== 'rate_limits') expect(before[name]!.length, name).toBeGreaterThan(0);
      }

      // into a target that is not empty: refused, naming what it holds, and nothing changed
      const again = await move(source, target.url);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        /The target is not empty: .*projects \(\d+ rows\).*Nothing was changed there/,
      );
      const untouched = await rowsOf(target.url);
      withoutCluster(untouched);
      expect(untouched).toEqual(after);

      // a server on each answers alike, byte for byte
      const b = await spawnServer({ ...ENV, DATABASE_URL: target.url });
      cleanups.push(() => b.stop('SIGKILL'));
      const c = await spawnServer({ ...ENV, DATABASE_URL: source });
      cleanups.push(() => c.stop('SIGKILL'));
      const webhooks = await b.call('GET', '/api/webhooks');
      const paths = [
        '/api/projects?limit=100',
        '/api/projects/deleted',
        '/api/tags?limit=100',
        '/api/keys',
        '/api/webhooks',
        `/api/webhooks/${webhooks.json.webhooks[0].id}/deliveries`,
        '/api/discovery/tasks?limit=100',
        '/api/search/synonyms',
        '/api/search/pins',
        '/api/changes?limit=1000',
        '/api/projects?q=test',
        ...slugs.flatMap((s) => [`/api/projects/${s}`, `/api/projects/${s}/revisions`]),
      ];
      for (const path of paths) {
        const [x, y] = [await b.call('GET', path), await c.call('GET', path)];
        expect(x.status, `${path}: ${x.text}`).toBe(200);
        expect(x.text, path).toBe(y.text);
      }
      await c.stop('SIGTERM');

      // the follower goes on with its cursor from before the move, and new changes order last
      const next = project();
      expect((await b.call('POST', '/api/webhook/projects', { body: { projects: [next] } })).status).toBe(
        200,
      );
      const resumed = await readAll(b, followed.cursor);
      expect(resumed.changes.map((x) => x.slug)).toEqual([slugOf(next)]);
      const all = await readAll(b);
      expect(all.changes.slice(0, -1).map((x) => x.cursor)).toEqual(followed.changes.map((x) => x.cursor));
      expect(all.changes.at(-1)?.slug).toBe(slugOf(next));
      const [, , id] = Buffer.from(resumed.changes[0]!.cursor, 'base64url').toString().split('.');
      expect(BigInt(id!)).toBeGreaterThan(10n ** 12n);
      // and the webhook goes on too
      const deadline = Date.now() + 20_000;
      while (!hook.received.some((r) => r.includes(slugOf(next))) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(hook.received.some((r) => r.includes(slugOf(next)))).toBe(true);
    }, 300_000);
  },
);
