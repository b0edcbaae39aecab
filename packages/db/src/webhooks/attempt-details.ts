import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * What an attempt sent and what came back
 * (docs/changes-and-webhooks.md#a-deliverys-request-and-response). The request's headers are the
 * ones sent (signatures, never a secret); the response's are bounded by the sender (at most 50, 8 KB),
 * its body is at most the answer's first 4096 bytes. `headers`/`body` of the response are null when
 * no answer came.
 */
export interface AttemptExchange {
  request: { url: string; headers: Record<string, string>; body: string };
  response: { headers: Record<string, string> | null; body: string | null; bodyTruncated: boolean };
}

/** The exchange's columns as query values, in the order of EXCHANGE_COLUMNS. */
export function exchangeValues(x: AttemptExchange | undefined) {
  return [
    x?.request.url ?? null,
    x ? JSON.stringify(x.request.headers) : null,
    x?.request.body ?? null,
    x?.response.headers ? JSON.stringify(x.response.headers) : null,
    x?.response.body ?? null,
    x?.response.bodyTruncated ?? false,
  ] as const;
}

export const EXCHANGE_COLUMNS = sql.raw(
  'request_url, request_headers, request_body, response_headers, response_body, response_body_truncated',
);

/** The exchange's values as one row of an insert (jsonb from their JSON text). */
export function exchangeRow(x: AttemptExchange | undefined) {
  const [url, headers, body, responseHeaders, responseBody, truncated] = exchangeValues(x);
  return sql`${url}, ${headers}::jsonb, ${body}, ${responseHeaders}::jsonb, ${responseBody}, ${truncated}`;
}

export interface AttemptRecord {
  id: string;
  type: 'change' | 'ping';
  /** Null for a ping. */
  changeId: string | null;
  /** A ping's `webhook-id`; null for a change's attempt (its id is made from changeId). */
  messageId: string | null;
  event: string;
  statusCode: number | null;
  error: string | null;
  success: boolean;
  durationMs: number;
  at: Date;
}

export const ATTEMPT =
  sql.raw(`id::text as id, type, change_id::text as "changeId", message_id as "messageId",
  event, status_code as "statusCode", error, success, duration_ms as "durationMs", at`);

export interface AttemptDetailRecord extends AttemptRecord {
  /** Null for an attempt recorded before its exchange was kept (migration 001140). */
  request: AttemptExchange['request'] | null;
  response: AttemptExchange['response'];
}

/** One attempt of a webhook with what it sent and received; undefined when the webhook has no such attempt. */
export async function findAttemptDetail(
  db: Db,
  webhookId: string,
  attemptId: string,
): Promise<AttemptDetailRecord | undefined> {
  const { rows } = await sql<
    AttemptRecord & {
      requestUrl: string | null;
      requestHeaders: Record<string, string> | null;
      requestBody: string | null;
      responseHeaders: Record<string, string> | null;
      responseBody: string | null;
      responseBodyTruncated: boolean;
    }
  >`
    select ${ATTEMPT}, request_url as "requestUrl", request_headers as "requestHeaders",
      request_body as "requestBody", response_headers as "responseHeaders", response_body as "responseBody",
      response_body_truncated as "responseBodyTruncated"
    from webhook_attempts where webhook_id = ${webhookId} and id = ${attemptId}::bigint
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const {
    requestUrl,
    requestHeaders,
    requestBody,
    responseHeaders,
    responseBody,
    responseBodyTruncated,
    ...a
  } = row;
  return {
    ...a,
    request:
      requestUrl === null
        ? null
        : { url: requestUrl, headers: requestHeaders ?? {}, body: requestBody ?? '' },
    response: { headers: responseHeaders, body: responseBody, bodyTruncated: responseBodyTruncated },
  };
}

/**
 * Records a ping (docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage):
 * an attempt without a delivery or a change, which leaves the webhook's run of failures as it is.
 * Undefined when the webhook was deleted while the ping was sent (nothing is recorded for it).
 */
export async function recordPing(
  db: Db,
  r: {
    webhookId: string;
    messageId: string;
    statusCode: number | null;
    error: string | null;
    success: boolean;
    durationMs: number;
    exchange: AttemptExchange;
  },
): Promise<AttemptRecord | undefined> {
  const { rows } = await sql<AttemptRecord>`
    insert into webhook_attempts
      (webhook_id, type, message_id, event, status_code, error, success, duration_ms, ${EXCHANGE_COLUMNS})
    select ${r.webhookId}, 'ping', ${r.messageId}, 'ping', ${r.statusCode}::int, ${r.error}, ${r.success},
      ${Math.round(r.durationMs)}, ${exchangeRow(r.exchange)}
    where exists (select 1 from webhooks where id = ${r.webhookId})
    returning ${ATTEMPT}
  `.execute(db);
  return rows[0];
}
