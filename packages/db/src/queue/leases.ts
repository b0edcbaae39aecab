import { type Kysely, sql } from 'kysely';
import type { Database, TaskRow } from '../tables.ts';
import { liveLease } from './live-lease.ts';

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
export async function claimQueuedTasks(
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
export async function extendLease(
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
export async function releaseLease(
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
