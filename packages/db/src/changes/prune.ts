import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * Removes changes older than `days` (final ones only), and webhook attempts and finished
 * deliveries as old; moves the retention mark to the last change removed. Returns how many
 * changes went.
 */
export async function pruneChanges(db: Db, days: number): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    with d as (
      delete from changes
      where at < now() - make_interval(days => ${days}::int)
        and xid < pg_snapshot_xmin(pg_current_snapshot())
      returning xid, id
    ), m as (
      select xid, id from d order by xid desc, id desc limit 1
    ), u as (
      update change_feed_state s set pruned_xid = m.xid, pruned_id = m.id
      from m where (m.xid, m.id) > (s.pruned_xid, s.pruned_id)
      returning 1
    ), orphans as (
      delete from webhook_deliveries x using d where x.change_id = d.id
    ), a as (
      delete from webhook_attempts where at < now() - make_interval(days => ${days}::int) returning 1
    ), f as (
      delete from webhook_deliveries
      where status <> 'PENDING' and created_at < now() - make_interval(days => ${days}::int)
      returning 1
    )
    select (select count(*) from d)::int as deleted
  `.execute(db);
  return rows[0]?.deleted ?? 0;
}
