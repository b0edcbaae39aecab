import { type Kysely, sql } from 'kysely';
import type { Database, TaskStatus } from '../tables.ts';

type Db = Kysely<Database>;

/** Exact counts per status from the counter table (one row per status and shard). */
export async function countTasksByStatus(db: Db): Promise<Record<TaskStatus, number>> {
  const { rows } = await sql<{ status: TaskStatus; n: number }>`
    select status, sum(n)::bigint as n from discovery_task_counts group by status
  `.execute(db);
  const counts: Record<TaskStatus, number> = { PENDING: 0, IN_PROGRESS: 0, COMPLETED: 0, FAILED: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

export interface QueueStats {
  counts: Record<TaskStatus, number>;
  delayed: number;
  leased: number;
  oldestClaimableAt: Date | null;
  now: Date;
  reapedTotal: number;
}

/** The queue's figures in one statement; every part reads a partial index or the counters. */
export async function queueStats(db: Db): Promise<QueueStats> {
  const { rows } = await sql<{
    counts: { status: TaskStatus; n: number }[] | null;
    delayed: number;
    leased: number;
    oldest: Date | null;
    now: Date;
    reaped: number;
  }>`
    select
      (select json_agg(c) from (
        select status, sum(n)::bigint as n from discovery_task_counts group by status
      ) c) as counts,
      (select count(*) from discovery_tasks
        where status = 'PENDING' and available_at is not null and available_at > now()) as delayed,
      (select count(*) from discovery_tasks
        where status = 'IN_PROGRESS' and lease_token is not null) as leased,
      (select created_at from discovery_tasks
        where status = 'PENDING' and (available_at is null or available_at <= now())
        order by created_at, id limit 1) as oldest,
      now() as now,
      (select value from queue_totals where name = 'reaped') as reaped
  `.execute(db);
  const row = rows[0];
  const counts: Record<TaskStatus, number> = { PENDING: 0, IN_PROGRESS: 0, COMPLETED: 0, FAILED: 0 };
  for (const c of row?.counts ?? []) counts[c.status] = Number(c.n);
  return {
    counts,
    delayed: Number(row?.delayed ?? 0),
    leased: Number(row?.leased ?? 0),
    oldestClaimableAt: row?.oldest ?? null,
    now: row?.now ?? new Date(),
    reapedTotal: Number(row?.reaped ?? 0),
  };
}
