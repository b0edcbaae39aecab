import { type Kysely, sql } from 'kysely';
import type { ChangeRecord } from '../changes/read.ts';
import type { Database } from '../tables.ts';
import {
  ATTEMPT,
  type AttemptExchange,
  type AttemptRecord,
  EXCHANGE_COLUMNS,
  exchangeRow,
} from './attempt-details.ts';

type Db = Kysely<Database>;

/** The most recent delivery attempts of a webhook, newest first by time (then by id). */
export async function listAttempts(db: Db, webhookId: string, limit: number): Promise<AttemptRecord[]> {
  const { rows } = await sql<AttemptRecord>`
    select ${ATTEMPT} from webhook_attempts where webhook_id = ${webhookId}
    order by at desc, id desc limit ${limit}
  `.execute(db);
  return rows;
}

/**
 * What a redelivery sends again
 * (docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage): the
 * attempt's delivery and the change it carried, as the dispatcher's claim reads them; undefined when the
 * webhook has no such attempt. `change` is null when the change is no longer kept (CHANGES_RETENTION_DAYS);
 * a ping's attempt has neither (a ping is not redelivered).
 */
export async function findAttemptForRedelivery(
  db: Db,
  webhookId: string,
  attemptId: string,
): Promise<
  { type: 'ping' } | { type: 'change'; deliveryId: string; change: ChangeRecord | null } | undefined
> {
  const { rows } = await sql<{
    type: 'change' | 'ping';
    deliveryId: string;
    change: (Omit<ChangeRecord, 'at'> & { at: string }) | null;
  }>`
    select a.type, a.delivery_id::text as "deliveryId",
      case when c.id is null then null else json_build_object(
        'id', c.id::text, 'xid', c.xid::text, 'type', c.type, 'at', c.at, 'projectId', c.project_id,
        'slug', c.slug, 'taskId', c.task_id, 'intoProjectId', c.into_project_id, 'intoSlug', c.into_slug, 'tagId', c.tag_id
      ) end as change
    from webhook_attempts a left join changes c on c.id = a.change_id
    where a.webhook_id = ${webhookId} and a.id = ${attemptId}::bigint
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  if (row.type === 'ping') return { type: 'ping' };
  return {
    type: 'change',
    deliveryId: row.deliveryId,
    change: row.change && { ...row.change, at: new Date(row.change.at) },
  };
}

/**
 * Records a redelivery's attempt; when it succeeded, its delivery is done (if it was still
 * pending or given up) and the webhook's run of failures ends. Returns the attempt.
 */
export async function recordRedelivery(
  db: Db,
  r: {
    webhookId: string;
    deliveryId: string;
    changeId: string;
    event: string;
    statusCode: number | null;
    error: string | null;
    success: boolean;
    durationMs: number;
    exchange: AttemptExchange;
  },
): Promise<AttemptRecord> {
  const { rows } = await sql<AttemptRecord>`
    with del as (
      update webhook_deliveries set status = 'DELIVERED', delivered_at = now()
      where ${r.success} and id = ${r.deliveryId}::bigint and status <> 'DELIVERED'
      returning 1
    ), hook as (
      update webhooks set consecutive_failures = 0 where ${r.success} and id = ${r.webhookId}
      returning 1
    )
    insert into webhook_attempts
      (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms, ${EXCHANGE_COLUMNS})
    values (${r.webhookId}, ${r.deliveryId}::bigint, ${r.changeId}::bigint, ${r.event},
      ${r.statusCode}, ${r.error}, ${r.success}, ${Math.round(r.durationMs)}, ${exchangeRow(r.exchange)})
    returning ${ATTEMPT}
  `.execute(db);
  return rows[0]!;
}

export interface ClaimedDelivery extends Omit<ChangeRecord, 'id'> {
  deliveryId: string;
  /** This attempt's number (1 for the first); fences the result against a later claim. */
  attempt: number;
  createdAt: Date;
  webhookId: string;
  url: string;
  secret: string;
  /** The secret a rotation replaced, while its grace period lasts; else null. */
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  /** The change's id (`id` of ChangeRecord); the rest of the change as the feed reads it. */
  changeId: string;
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks. SKIP LOCKED lets every server
 * process claim at once without waiting on each other; the claim pushes the delivery's due time
 * `leaseMs` ahead, so that a process that dies while sending leaves it due again then (the
 * delivery is at least once). The statement commits on its own: sending happens outside any
 * transaction.
 */
export async function claimDeliveries(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  // A delivery carries only what its webhook's owner may read (docs/keys-and-limits.md#webhooks-have-owners):
  // one queued while it could, whose owner can no longer read the feed (revoked, expired), is given up.
  const { rows } = await sql<ClaimedDelivery>`
    with unread as (
      update webhook_deliveries d set status = 'FAILED'
      from webhooks w
      where w.id = d.webhook_id and w.enabled and d.status = 'PENDING' and d.next_attempt_at <= now()
        and not webhook_owner_reads(w.owner)
    ), due as (
      select d.id from webhook_deliveries d
      join webhooks w on w.id = d.webhook_id and w.enabled and webhook_owner_reads(w.owner)
      where d.status = 'PENDING' and d.next_attempt_at <= now()
      order by d.next_attempt_at, d.id
      limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d
    set attempts = d.attempts + 1,
      next_attempt_at = clock_timestamp() + ${leaseMs}::int * interval '1 millisecond'
    from due, webhooks w, changes c
    where d.id = due.id and w.id = d.webhook_id and c.id = d.change_id
    returning d.id::text as "deliveryId", d.attempts as attempt, d.created_at as "createdAt",
      w.id as "webhookId", w.url, w.secret,
      case when w.previous_secret_until > now() then w.previous_secret end as "previousSecret",
      case when w.previous_secret_until > now() then w.previous_secret_until end as "previousSecretUntil", c.id::text as "changeId", c.xid::text as xid, c.type,
      c.at, c.project_id as "projectId", c.slug, c.task_id as "taskId",
      c.into_project_id as "intoProjectId", c.into_slug as "intoSlug", c.tag_id as "tagId"
  `.execute(db);
  return rows;
}

export interface AttemptResult {
  delivery: ClaimedDelivery;
  success: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What was sent and what came back (absent: not kept). */
  exchange?: AttemptExchange | undefined;
  /** On failure: when to try again, in ms from now. */
  retryInMs: number;
  /** On failure: give up on this delivery when it was first queued longer ago than this. */
  giveUpAfterMs: number;
  /** Consecutive failures of a webhook at which it is disabled. */
  maxFailures: number;
}

/**
 * Records an attempt and its outcome in one statement: the attempt row; the delivery done,
 * due again later, or given up; the webhook's run of failures (reset by a success; at the
 * limit the webhook is disabled). A result for an attempt that was since claimed again (its
 * lease ran out) still records the attempt but leaves the delivery to the newer claim.
 */
export async function recordAttempt(db: Db, r: AttemptResult): Promise<{ disabled: boolean }> {
  const d = r.delivery;
  const { rows } = await sql<{ disabled: boolean }>`
    with a as (
      insert into webhook_attempts
        (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms, ${EXCHANGE_COLUMNS})
      values (${d.webhookId}, ${d.deliveryId}::bigint, ${d.changeId}::bigint, ${d.type},
        ${r.statusCode}, ${r.error}, ${r.success}, ${Math.round(r.durationMs)}, ${exchangeRow(r.exchange)})
      returning 1
    ), del as (
      update webhook_deliveries set
        status = case
          when ${r.success} then 'DELIVERED'
          when created_at < now() - ${r.giveUpAfterMs}::int * interval '1 millisecond' then 'FAILED'
          else 'PENDING' end,
        delivered_at = case when ${r.success} then now() else null end,
        next_attempt_at = case when ${r.success} then next_attempt_at
          else clock_timestamp() + ${Math.round(r.retryInMs)}::int * interval '1 millisecond' end
      where id = ${d.deliveryId}::bigint and attempts = ${d.attempt} and status = 'PENDING'
      returning 1
    )
    update webhooks set
      consecutive_failures = case when ${r.success} then 0 else consecutive_failures + 1 end,
      enabled = enabled and (${r.success} or consecutive_failures + 1 < ${r.maxFailures}),
      disabled_at = case
        when enabled and not ${r.success} and consecutive_failures + 1 >= ${r.maxFailures} then now()
        else disabled_at end
    where id = ${d.webhookId}
    returning not enabled as disabled
  `.execute(db);
  return { disabled: rows[0]?.disabled ?? false };
}

/** Webhook deliveries by state, and attempts by outcome (pings aside: not deliveries), for /metrics. */
export async function deliveryCounts(
  db: Db,
): Promise<{ deliveries: Record<string, number>; attempts: Record<string, number> }> {
  const { rows } = await sql<{ kind: string; key: string; count: number }>`
    select 'delivery' as kind, status as key, count(*)::int as count from webhook_deliveries group by status
    union all
    select 'attempt', case when success then 'success' else 'failure' end, count(*)::int
    from webhook_attempts where type = 'change' group by success
  `.execute(db);
  const deliveries: Record<string, number> = { PENDING: 0, DELIVERED: 0, FAILED: 0 };
  const attempts: Record<string, number> = { success: 0, failure: 0 };
  for (const r of rows) (r.kind === 'delivery' ? deliveries : attempts)[r.key] = r.count;
  return { deliveries, attempts };
}
