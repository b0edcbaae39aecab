import { type Kysely, sql } from 'kysely';
import { expiredLease, liveLease } from './lease.ts';
import type { Database, TaskRow, TaskStatus } from './tables.ts';

type Db = Kysely<Database>;

// Every function here is ONE guarded statement: the WHERE clause carries the whole condition
// of the change (status, token, expiry), so that a claim, a heartbeat, a release, a fenced
// completion and the reaper racing on one row serialise on its row lock and exactly the
// changes whose condition still holds on the row as the winner left it take effect.

/** A task row as a claimer sees it: with its lease token. */
export type LeasedTaskRow = TaskRow & { lease_token: string };

/**
 * Claims up to `limit` claimable tasks (PENDING, available now) in queue order. SKIP LOCKED
 * makes concurrent claimers pass over rows another claimer is taking instead of waiting for
 * them; the outer guard repeats `status = 'PENDING'` so a row changed meanwhile is not taken.
 */
export async function claimTasks(
  db: Db,
  claim: { limit: number; leaseSeconds: number; worker: string | null },
): Promise<LeasedTaskRow[]> {
  const { rows } = await sql<LeasedTaskRow>`
    with picked as (
      select id from discovery_tasks
      where status = 'PENDING' and (available_at is null or available_at <= now())
      order by created_at, id
      limit ${claim.limit}
      for update skip locked
    )
    , claimed as (
    update discovery_tasks t set
      status = 'IN_PROGRESS',
      started_at = now(),
      completed_at = null,
      attempt = t.attempt + 1,
      lease_token = gen_random_uuid()::text,
      lease_expires_at = now() + ${claim.leaseSeconds}::integer * interval '1 second',
      lease_seconds = ${claim.leaseSeconds}::integer,
      worker = ${claim.worker}::text,
      available_at = null
    from picked
    where t.id = picked.id and t.status = 'PENDING'
    returning t.*
    )
    select * from claimed order by created_at, id
  `.execute(db);
  return rows;
}

/** Extends a live lease from now; undefined when the token is not the task's live lease. */
export async function heartbeatTask(
  db: Db,
  id: string,
  token: string,
  leaseSeconds: number | undefined,
): Promise<TaskRow | undefined> {
  const seconds = leaseSeconds ?? null;
  const { rows } = await sql<TaskRow>`
    update discovery_tasks set
      lease_seconds = coalesce(${seconds}::integer, lease_seconds),
      lease_expires_at = now() + coalesce(${seconds}::integer, lease_seconds) * interval '1 second'
    where id = ${id} and ${liveLease(token)}
    returning *
  `.execute(db);
  return rows[0];
}

/** Gives a leased task back to the queue; undefined when the token is not the task's live lease. */
export async function releaseTask(
  db: Db,
  id: string,
  token: string,
  release: { errorMessage: string | undefined; retryAfterSeconds: number },
): Promise<TaskRow | undefined> {
  const message = release.errorMessage ?? null;
  const { rows } = await sql<TaskRow>`
    update discovery_tasks set
      status = 'PENDING',
      started_at = null,
      lease_token = null,
      lease_expires_at = null,
      lease_seconds = null,
      available_at = now() + ${release.retryAfterSeconds}::integer * interval '1 second',
      retry_count = retry_count + 1,
      last_retry_at = now(),
      error_message = coalesce(${message}::text, error_message)
    where id = ${id} and ${liveLease(token)}
    returning *
  `.execute(db);
  return rows[0];
}

/** Whether `token` is the live lease of the task, judged in the database's clock; locks the row. */
export async function lockTaskWithLease(
  db: Db,
  id: string,
  token: string,
): Promise<(TaskRow & { lease_live: boolean }) | undefined> {
  const { rows } = await sql<TaskRow & { lease_live: boolean }>`
    select *, coalesce(${liveLease(token)}, false) as lease_live
    from discovery_tasks where id = ${id}
    for update
  `.execute(db);
  return rows[0];
}

export interface ReapSettings {
  maxAttempts: number;
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
  /** Rows per statement; the reaper repeats until fewer are left. */
  batchSize: number;
  /** The error message of a task sent back to the queue, and of one out of attempts. */
  messages: { requeued: string; exhausted: string };
}

// Any fixed number: the advisory lock that lets one reaper at a time run across processes.
const REAPER_LOCK = 727_274_200;

/**
 * Returns expired leases to the queue (or to FAILED once their attempts are used up), in one
 * guarded UPDATE. Runs only if this transaction gets the reaper's advisory lock: another
 * process reaping at this moment makes this call a no-op (`ran: false`). The guard
 * `lease_expires_at < now()` is re-checked on the row a racing heartbeat or completion left.
 */
export async function reapExpiredLeases(
  db: Db,
  settings: ReapSettings,
): Promise<{ ran: boolean; requeued: number; failed: number }> {
  return db.transaction().execute(async (trx) => {
    const { rows: lock } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${REAPER_LOCK}) as locked
    `.execute(trx);
    if (!lock[0]?.locked) return { ran: false, requeued: 0, failed: 0 };
    const { rows } = await sql<{ requeued: number; failed: number }>`
      with expired as (
        select id from discovery_tasks
        where ${expiredLease}
        order by lease_expires_at
        limit ${settings.batchSize}
        for update skip locked
      ), reaped as (
        update discovery_tasks t set
          status = case when t.attempt >= ${settings.maxAttempts} then 'FAILED' else 'PENDING' end,
          started_at = case when t.attempt >= ${settings.maxAttempts} then t.started_at end,
          completed_at = case when t.attempt >= ${settings.maxAttempts} then now() end,
          error_message = case when t.attempt >= ${settings.maxAttempts}
            then ${settings.messages.exhausted}::text else ${settings.messages.requeued}::text end,
          retry_count = t.retry_count + case when t.attempt >= ${settings.maxAttempts} then 0 else 1 end,
          last_retry_at = case when t.attempt >= ${settings.maxAttempts} then t.last_retry_at else now() end,
          -- exponential backoff with "equal jitter": half the delay fixed, half random
          available_at = case when t.attempt >= ${settings.maxAttempts} then null else now() +
            least(${settings.backoffMaxSeconds}::float8,
                  ${settings.backoffBaseSeconds}::float8 * power(2, greatest(t.attempt - 1, 0)))
            * (0.5 + random() / 2) * interval '1 second' end,
          lease_token = null,
          lease_expires_at = null,
          lease_seconds = null
        from expired
        where t.id = expired.id and ${expiredLease}
        returning t.status
      ), counted as (
        update queue_totals set value = value + (select count(*) from reaped) where name = 'reaped'
      )
      select
        (count(*) filter (where status = 'PENDING'))::int as requeued,
        (count(*) filter (where status = 'FAILED'))::int as failed
      from reaped
    `.execute(trx);
    return { ran: true, requeued: rows[0]?.requeued ?? 0, failed: rows[0]?.failed ?? 0 };
  });
}

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
