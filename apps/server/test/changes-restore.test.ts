import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterAll } from './cleanups.ts';
import { readAll, receiver } from './feed-receivers.ts';
import { POSTGRES_URL, project, slugOf, spawnServer } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/*
 * The backup of docs/operating.md#backups restored onto a freshly initialised cluster, whose
 * transaction counter starts below the stored feed positions: a follower resuming from its
 * cursor from before the backup, and a webhook, receive what is written after the restore, new
 * changes order after the old ones, and a cursor the old cluster gave out after the backup is
 * 410, never an empty page. Runs only when TEST_DATABASE_URL is set, like the other PostgreSQL tests.
 */

const run = promisify(execFile);
const postgres = findPostgres();
const skipReason = !POSTGRES_URL
  ? 'TEST_DATABASE_URL is not set'
  : 'reason' in postgres
    ? postgres.reason
    : undefined;
const KEY = `restore-key-${randomBytes(8).toString('hex')}`;
const ENV = { WEBHOOK_API_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '100' };

/** The feed position (xid, change id) a cursor names. */
function position(cursor: string): [bigint, bigint] {
  const [tag, xid, id] = Buffer.from(cursor, 'base64url').toString().split('.');
  expect(tag).toBe('c1');
  return [BigInt(xid!), BigInt(id!)];
}

async function sql(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(skipReason !== undefined)(
  `a backup restored onto a new cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const tools = postgres as Exclude<typeof postgres, { reason: string }>;
    const cleanups = cleanupsAfterAll(300_000);

    it('keeps followers and webhooks going, orders new changes last, and answers 410 to a cursor it never gave', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'feed-restore-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const hook = await receiver();
      cleanups.push(() => hook.close());
      const { url: hookUrl, received } = hook;

      const old: PrivateCluster = await createCluster(tools);
      cleanups.push(() => old.destroy());
      await old.start();
      const oldUrl = old.url('pw');
      const a = await spawnServer({ ...ENV, DATABASE_URL: oldUrl });
      cleanups.push(() => a.stop('SIGKILL'));
      const hookMade = await a.call('POST', '/api/webhooks', { body: { url: hookUrl, events: ['*'] } });
      expect(hookMade.status, hookMade.text).toBe(200);
      const before = [project(), project()];
      expect(
        (await a.call('POST', '/api/webhook/projects', { body: { projects: [before[0]] } })).status,
      ).toBe(200);
      // the old cluster's counter far ahead of where a new one starts
      await sql(
        oldUrl,
        `do $$ begin for i in 1..5000 loop perform pg_current_xact_id(); commit; end loop; end $$`,
      );
      expect(
        (await a.call('POST', '/api/webhook/projects', { body: { projects: [before[1]] } })).status,
      ).toBe(200);
      const followed = await readAll(a);
      expect(followed.changes.map((c) => c.slug)).toEqual(before.map(slugOf));

      // the documented backup (docs/operating.md#backups)
      const dump = join(dir, 'directory.dump');
      await run(join(tools.bin, 'pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, oldUrl]);
      // the old directory goes on after the backup: a follower's cursor the backup does not hold
      const lost = project();
      expect((await a.call('POST', '/api/webhook/projects', { body: { projects: [lost] } })).status).toBe(
        200,
      );
      const ahead = (await readAll(a, followed.cursor)).changes;
      expect(ahead.map((c) => c.slug)).toEqual([slugOf(lost)]);
      await a.stop('SIGTERM');

      const fresh: PrivateCluster = await createCluster(tools);
      cleanups.push(() => fresh.destroy());
      await fresh.start();
      const freshUrl = fresh.url('pw');
      await run(join(tools.bin, 'pg_restore'), [
        '--no-owner',
        '--exit-on-error',
        `--dbname=${freshUrl}`,
        dump,
      ]);
      // the case this is about: the new cluster's counter is below the stored positions
      const [{ next, top }] = await sql(
        freshUrl,
        `select pg_snapshot_xmax(pg_current_snapshot())::text as next, (select max(xid::text::bigint) from changes)::text as top`,
      );
      expect(BigInt(next)).toBeLessThan(BigInt(top));

      const b = await spawnServer({ ...ENV, DATABASE_URL: freshUrl });
      cleanups.push(() => b.stop('SIGKILL'));
      const after = [project(), project()];
      for (const p of after) {
        expect((await b.call('POST', '/api/webhook/projects', { body: { projects: [p] } })).status).toBe(200);
      }
      // the follower resumes with its cursor from before the backup and receives exactly what followed
      const resumed = await readAll(b, followed.cursor);
      expect(resumed.changes.map((c) => c.slug)).toEqual(after.map(slugOf));
      // new changes order after every old one: the whole feed is the old one, then the new
      const all = await readAll(b);
      expect(all.changes.map((c) => c.slug)).toEqual([...before, ...after].map(slugOf));
      for (const c of resumed.changes)
        expect(position(c.cursor)[0]).toBeGreaterThan(position(followed.cursor)[0]);

      // a cursor the old cluster gave out after the backup: 410 with what to do, not an empty page
      const gone = await b.call('GET', `/api/changes?after=${ahead[0]!.cursor}`);
      expect(gone.status, gone.text).toBe(410);
      expect(gone.json).toEqual({
        success: false,
        error: 'Gone',
        details: [expect.stringMatching(/^cursor: .*from the beginning, without `after`/)],
      });
      // the cursors the restored directory gave out still work
      expect((await readAll(b, all.changes[1]!.cursor)).changes.map((c) => c.slug)).toEqual(
        after.map(slugOf),
      );

      // the webhook follows the same feed: it receives the changes written after the restore
      const deadline = Date.now() + 20_000;
      while (!after.every((p) => received.some((r) => r.includes(slugOf(p)))) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const p of after)
        expect(
          received.some((r) => r.includes(slugOf(p))),
          slugOf(p),
        ).toBe(true);

      // a restart on the same cluster changes nothing
      await b.stop('SIGTERM');
      const c = await spawnServer({ ...ENV, DATABASE_URL: freshUrl });
      cleanups.push(() => c.stop('SIGKILL'));
      const one = project();
      expect((await c.call('POST', '/api/webhook/projects', { body: { projects: [one] } })).status).toBe(200);
      const last = (await readAll(c, resumed.cursor)).changes;
      expect(last.map((x) => x.slug)).toEqual([slugOf(one)]);
      expect(position(last[0]!.cursor)[1]).toBe(position(resumed.cursor)[1] + 1n);
    }, 300_000);
  },
);
