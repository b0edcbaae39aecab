import { type Kysely, sql } from 'kysely';
import type { Database, TaskRow, TaskStatus } from '../tables.ts';

type Db = Kysely<Database>;

export async function findTaskById(db: Db, id: string): Promise<TaskRow | undefined> {
  return db.selectFrom('discovery_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Reads a task and locks its row until the transaction ends. */
export async function lockTaskById(db: Db, id: string): Promise<TaskRow | undefined> {
  return db.selectFrom('discovery_tasks').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface TaskPage {
  total: number;
  rows: TaskRow[];
  /** Each row's exact created_at (microseconds, as the database prints it), for cursors. */
  createdAtTexts: string[];
}

/** A position in queue order: after the task with this created_at (database text) and id. */
export interface QueuePosition {
  createdAt: string;
  id: string;
}

/**
 * One page in queue order (created_at, id) and the total, in one statement (one snapshot).
 * The total is the sum of the per-status counters that triggers keep (see the queue
 * migration), so it costs the same at any table size; the page is an index range scan
 * that starts at `after` (keyset) or skips `offset` rows. Each combination of filters is its
 * own statement text, so each gets its own plan (a generic plan of "$1 is null or status =
 * $1" could not use the status index).
 */
export async function readTaskPage(
  db: Db,
  query: {
    status?: TaskStatus | undefined;
    limit: number;
    offset: number;
    after?: QueuePosition | undefined;
  },
): Promise<TaskPage> {
  const { status, after } = query;
  const counted = status
    ? sql`select coalesce(sum(n), 0)::bigint from discovery_task_counts where status = ${status}`
    : sql`select coalesce(sum(n), 0)::bigint from discovery_task_counts`;
  const conditions = [
    ...(status ? [sql`status = ${status}`] : []),
    ...(after ? [sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::text)`] : []),
  ];
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const offset = query.offset > 0 ? sql`offset ${query.offset}` : sql``;
  const result = await sql<{ total: number; rows: TaskRow[] | null }>`
    select
      (${counted}) as total,
      (select json_agg(page) from (
        select * from discovery_tasks
        ${where}
        order by created_at, id
        limit ${query.limit} ${offset}
      ) page) as rows
  `.execute(db);
  const row = result.rows[0];
  const raw = row?.rows ?? [];
  return {
    total: Number(row?.total ?? 0),
    rows: raw.map(reviveTaskDates),
    createdAtTexts: raw.map((r) => r.created_at as unknown as string),
  };
}

// json_agg carries timestamps as text; the rest of the code reads TaskRow with Dates.
function reviveTaskDates(row: TaskRow): TaskRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...row,
    created_at: new Date(row.created_at as unknown as string),
    started_at: date(row.started_at),
    completed_at: date(row.completed_at),
    last_retry_at: date(row.last_retry_at),
    lease_expires_at: date(row.lease_expires_at),
    available_at: date(row.available_at),
  };
}
