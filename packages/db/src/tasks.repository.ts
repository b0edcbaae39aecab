import { type Kysely, sql } from 'kysely';
import { liveLease } from './lease.ts';
import type { Database, TaskRow, TaskStatus } from './tables.ts';

type Db = Kysely<Database>;

export interface NewTask {
  id: string;
  sourceUrl: string;
  /** core's urlKey(sourceUrl). */
  urlKey: string;
  sourceType: string;
}

/**
 * Creates the tasks whose sourceUrl's key has none yet and returns how many were created. The
 * unique index on url_key decides races between processes (ON CONFLICT DO NOTHING).
 * Rows of one statement share now(); a microsecond per position keeps them in submitted order
 * in the queue (the API shows milliseconds).
 */
export async function insertTasks(db: Db, tasks: NewTask[]): Promise<number> {
  const result = await sql`
    insert into discovery_tasks (id, source_url, url_key, source_type, created_at)
    select u.id, u.source_url, u.url_key, u.source_type, now() + (u.i - 1) * interval '1 microsecond'
    from unnest(
      ${tasks.map((t) => t.id)}::text[],
      ${tasks.map((t) => t.sourceUrl)}::text[],
      ${tasks.map((t) => t.urlKey)}::text[],
      ${tasks.map((t) => t.sourceType)}::text[]
    ) with ordinality as u(id, source_url, url_key, source_type, i)
    order by u.i
    on conflict (url_key) do nothing
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

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
export async function listTasks(
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

/** A change of timestamp: set to the statement's time, cleared, or left as it is. */
export type TimestampChange = 'now' | 'now-if-null' | 'clear' | 'keep';

export interface TaskChange {
  status: TaskStatus;
  startedAt: TimestampChange;
  completedAt: TimestampChange;
  countRetry: boolean;
  projectId?: string | null;
  /** undefined leaves the column as it is; null clears it. */
  explorationData?: unknown;
  explorationSummary?: string | null;
  errorMessage?: string | null;
}

/** Only while this token is the task's live lease (fencing); see queue.repository.ts. */
export interface LeaseGuard {
  leaseToken: string;
}

function timestamp(column: 'started_at' | 'completed_at', change: TimestampChange) {
  switch (change) {
    case 'now':
      return sql<Date>`now()`;
    case 'now-if-null':
      return sql<Date>`coalesce(${sql.ref(column)}, now())`;
    case 'clear':
      return null;
    case 'keep':
      return sql<Date>`${sql.ref(column)}`;
  }
}

/**
 * Applies a change to a task only while it is still in `from` (a conditional update): of
 * several racing writers exactly one finds the expected status; the others get undefined.
 */
export async function updateTaskIfStatus(
  db: Db,
  id: string,
  from: TaskStatus | readonly TaskStatus[],
  change: TaskChange,
  guard?: LeaseGuard,
): Promise<TaskRow | undefined> {
  const froms = typeof from === 'string' ? [from] : [...from];
  let update = db
    .updateTable('discovery_tasks')
    .set({
      status: change.status,
      started_at: timestamp('started_at', change.startedAt),
      completed_at: timestamp('completed_at', change.completedAt),
      ...(change.countRetry && {
        retry_count: sql<number>`retry_count + 1`,
        last_retry_at: sql<Date>`now()`,
      }),
      ...(change.projectId !== undefined && { project_id: change.projectId }),
      ...(change.explorationData !== undefined && {
        exploration_data: change.explorationData === null ? null : JSON.stringify(change.explorationData),
      }),
      ...(change.explorationSummary !== undefined && { exploration_summary: change.explorationSummary }),
      ...(change.errorMessage !== undefined && { error_message: change.errorMessage }),
      // a status change away from IN_PROGRESS ends any lease; a PATCH to IN_PROGRESS makes none
      lease_token: null,
      lease_expires_at: null,
      lease_seconds: null,
    })
    .where('id', '=', id)
    .where('status', 'in', froms);
  if (guard) update = update.where(liveLease(guard.leaseToken));
  return update.returningAll().executeTakeFirst();
}
