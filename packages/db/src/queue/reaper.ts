import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { expiredLease } from './live-lease.ts';

type Db = Kysely<Database>;

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
