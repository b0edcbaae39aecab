import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { EXCHANGE_COLUMNS, exchangeValues } from './attempt-details.ts';
import type { AttemptResult } from './deliveries.ts';

type Db = Kysely<Database>;

/**
 * Records the attempts of one claimed batch in one statement (a statement per batch,
 * not per delivery), with the outcome recordAttempt gives them one after the other, in the
 * order given: the attempt rows; each delivery done, due again later, or given up (unless it was
 * since claimed again); each webhook's run of failures, as if each attempt had added one or reset
 * it in turn, and the webhook disabled if that run reached `maxFailures` at any point. The
 * webhooks' rows are locked in id order, so that dispatchers in several processes cannot
 * deadlock on two of them. Returns the ids of the webhooks this disabled.
 */
export async function recordAttempts(
  db: Db,
  results: readonly Omit<AttemptResult, 'giveUpAfterMs' | 'maxFailures'>[],
  limits: { giveUpAfterMs: number; maxFailures: number },
): Promise<string[]> {
  if (results.length === 0) return [];
  // Per webhook, its failures before its first success (added to its stored run), whether any
  // attempt succeeded, and the longest run of failures after the first success (the last run
  // is the new stored one).
  const runs = new Map<string, { leading: number; success: boolean; current: number; worst: number }>();
  for (const r of results) {
    const run = runs.get(r.delivery.webhookId) ?? { leading: 0, success: false, current: 0, worst: 0 };
    runs.set(r.delivery.webhookId, run);
    if (r.success) {
      run.success = true;
      run.current = 0;
    } else if (!run.success) run.leading++;
    else run.worst = Math.max(run.worst, ++run.current);
  }
  const hooks = [...runs.keys()].sort();
  const at = <T>(pick: (r: (typeof results)[number]) => T) => results.map(pick);
  const exchanges = results.map((r) => exchangeValues(r.exchange));
  const ex = <I extends number>(i: I) => exchanges.map((x) => x[i]);
  const { rows } = await sql<{ id: string; newly: boolean }>`
    with
      r as (
        select * from unnest(
          ${at((r) => r.delivery.webhookId)}::text[], ${at((r) => r.delivery.deliveryId)}::bigint[],
          ${at((r) => r.delivery.changeId)}::bigint[], ${at((r) => r.delivery.type)}::text[],
          ${at((r) => r.statusCode)}::int[], ${at((r) => r.error)}::text[], ${at((r) => r.success)}::bool[],
          ${at((r) => Math.round(r.durationMs))}::int[], ${at((r) => r.delivery.attempt)}::int[],
          ${at((r) => Math.round(r.retryInMs))}::int[], ${ex(0)}::text[], ${ex(1)}::text[], ${ex(2)}::text[],
          ${ex(3)}::text[], ${ex(4)}::text[], ${ex(5)}::bool[]
        ) with ordinality as r(webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms,
          attempt, retry_ms, request_url, request_headers, request_body, response_headers, response_body,
          response_body_truncated, ord)
      ),
      a as (
        insert into webhook_attempts
          (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms, ${EXCHANGE_COLUMNS})
        select webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms,
          request_url, request_headers::jsonb, request_body, response_headers::jsonb, response_body,
          response_body_truncated
        from r order by ord
        returning 1
      ),
      del as (
        update webhook_deliveries d set
          status = case
            when r.success then 'DELIVERED'
            when d.created_at < now() - ${limits.giveUpAfterMs}::int * interval '1 millisecond' then 'FAILED'
            else 'PENDING' end,
          delivered_at = case when r.success then now() else null end,
          next_attempt_at = case when r.success then d.next_attempt_at
            else clock_timestamp() + r.retry_ms * interval '1 millisecond' end
        from r
        where d.id = r.delivery_id and d.attempts = r.attempt and d.status = 'PENDING'
        returning 1
      ),
      s as (
        select * from unnest(
          ${hooks}::text[], ${hooks.map((h) => runs.get(h)!.leading)}::int[],
          ${hooks.map((h) => runs.get(h)!.success)}::bool[], ${hooks.map((h) => runs.get(h)!.current)}::int[],
          ${hooks.map((h) => runs.get(h)!.worst)}::int[]
        ) as s(id, before_success, success, after_success, worst)
      ),
      locked as (
        select w.id, w.enabled, w.consecutive_failures,
          (s.before_success > 0 and w.consecutive_failures + s.before_success >= ${limits.maxFailures})
            or s.worst >= ${limits.maxFailures} as reached,
          case when s.success then s.after_success else w.consecutive_failures + s.before_success end as failures
        from webhooks w join s on s.id = w.id
        order by w.id
        for update of w
      )
    update webhooks w set
      consecutive_failures = l.failures,
      enabled = w.enabled and not l.reached,
      disabled_at = case when w.enabled and l.reached then now() else w.disabled_at end
    from locked l
    where w.id = l.id and (select count(*) from a) >= 0 and (select count(*) from del) >= 0
    returning w.id, (l.enabled and l.reached) as newly
  `.execute(db);
  return rows.filter((r) => r.newly).map((r) => r.id);
}
