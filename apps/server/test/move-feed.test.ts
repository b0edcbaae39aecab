import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, migrateToLatest, moveDatabase, sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterAll } from './cleanups.ts';
import { POSTGRES_URL } from './helpers.ts';
import { createCluster, findPostgres } from './private-cluster.ts';

/*
 * The feed's positions after `pnpm db:move` (docs/operating.md#moving-to-postgresql) onto a
 * cluster freshly made by initdb, whose transaction counter is below the embedded database's:
 * the move spends transaction ids until new changes order after every moved one, and moves change
 * ids on by 10^12 (packages/db/src/changes/advance.ts). move.test.ts follows the feed over HTTP.
 */

const postgres = findPostgres();
const skipReason = !POSTGRES_URL
  ? 'TEST_DATABASE_URL is not set'
  : 'reason' in postgres
    ? postgres.reason
    : undefined;

const project = (id: string) => sql`
  insert into projects (id, name, slug, description, status) values (${id}, ${id}, ${id}, 'a project here', 'ACTIVE')
`;

describe.skipIf(skipReason !== undefined)(
  `the feed after a move onto a new cluster${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const cleanups = cleanupsAfterAll(120_000);

    it('orders every new change after the moved ones, spending transaction ids to get there', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'move-feed-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const source = await connect(`pglite:${dir}`);
      cleanups.push(() => source.close());
      await migrateToLatest(source.db);
      await project('before-1').execute(source.db);
      // the embedded counter well past where a new cluster's starts
      await sql`do $$ begin for i in 1..3000 loop perform pg_current_xact_id(); commit; end loop; end $$`.execute(
        source.db,
      );
      await project('before-2').execute(source.db);

      const cluster = await createCluster(postgres as Exclude<typeof postgres, { reason: string }>);
      cleanups.push(() => cluster.destroy());
      await cluster.start();
      const target = await connect(cluster.url('pw'), { poolSize: 2 });
      cleanups.push(() => target.close());
      const top = async (db: typeof source.db) =>
        (
          await sql<{
            xid: string;
            id: string;
          }>`select c.xid::text as xid, c.id::text as id from changes c order by c.xid desc, c.id desc limit 1`.execute(
            db,
          )
        ).rows[0]!;
      const moved = await top(source.db);
      const next = await sql<{
        next: string;
      }>`select pg_snapshot_xmax(pg_current_snapshot())::text as next`.execute(target.db);
      // the case this is about
      expect(BigInt(next.rows[0]!.next)).toBeLessThan(BigInt(moved.xid));

      const report = await moveDatabase(source, target);
      expect(report.feed.moved).toBe(true);
      expect(report.feed.spent).toBeGreaterThan(0);
      await project('after-1').execute(target.db);
      const after = await top(target.db);
      expect(BigInt(after.xid)).toBeGreaterThan(BigInt(moved.xid));
      expect(BigInt(after.id)).toBeGreaterThan(BigInt(moved.id) + 10n ** 12n);
      const { rows } = await sql<{ slug: string }>`select slug from changes order by xid, id`.execute(
        target.db,
      );
      expect(rows.map((r) => r.slug)).toEqual(['before-1', 'before-2', 'after-1']);
    }, 240_000);
  },
);
