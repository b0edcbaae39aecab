import { type Kysely, sql } from 'kysely';
import type { Database, TaskRow, TaskStatus } from './tables.ts';

type Db = Kysely<Database>;

export interface NewTask {
  id: string;
  sourceUrl: string;
  sourceType: string;
}

/**
 * Creates the tasks whose sourceUrl has none yet and returns how many were created. The
 * unique constraint on source_url decides races between processes (ON CONFLICT DO NOTHING).
 * Rows of one statement share now(); a microsecond per position keeps them in submitted order
 * in the queue (the API shows milliseconds).
 */
export async function insertTasks(db: Db, tasks: NewTask[]): Promise<number> {
  const result = await sql`
    insert into discovery_tasks (id, source_url, source_type, created_at)
    select u.id, u.source_url, u.source_type, now() + (u.i - 1) * interval '1 microsecond'
    from unnest(
      ${tasks.map((t) => t.id)}::text[],
      ${tasks.map((t) => t.sourceUrl)}::text[],
      ${tasks.map((t) => t.sourceType)}::text[]
    ) with ordinality as u(id, source_url, source_type, i)
    order by u.i
    on conflict (source_url) do nothing
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
}

/** One page in queue order (created_at, id) and the total, in one round trip. */
export async function listTasks(
  db: Db,
  query: { status?: TaskStatus | undefined; limit: number; offset: number },
): Promise<TaskPage> {
  const status = query.status ?? null;
  const result = await sql<{ total: number; rows: TaskRow[] | null }>`
    select
      (select count(*) from discovery_tasks where ${status}::text is null or status = ${status}) as total,
      (select json_agg(page) from (
        select * from discovery_tasks
        where ${status}::text is null or status = ${status}
        order by created_at, id
        limit ${query.limit} offset ${query.offset}
      ) page) as rows
  `.execute(db);
  const row = result.rows[0];
  return { total: row?.total ?? 0, rows: (row?.rows ?? []).map(reviveTaskDates) };
}

// json_agg carries timestamps as text; the rest of the code reads TaskRow with Dates.
function reviveTaskDates(row: TaskRow): TaskRow {
  const date = (v: unknown) => (v === null ? null : new Date(v as string));
  return {
    ...row,
    created_at: new Date(row.created_at as unknown as string),
    started_at: date(row.started_at),
    completed_at: date(row.completed_at),
    last_retry_at: date(row.last_retry_at),
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
): Promise<TaskRow | undefined> {
  const froms = typeof from === 'string' ? [from] : [...from];
  return db
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
    })
    .where('id', '=', id)
    .where('status', 'in', froms)
    .returningAll()
    .executeTakeFirst();
}
