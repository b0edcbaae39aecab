import { type Kysely, sql } from 'kysely';
import { liveLease } from '../queue/live-lease.ts';
import type { Database, TaskRow, TaskStatus } from '../tables.ts';

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

/** Only while this token is the task's live lease (fencing); the condition is queue/live-lease.ts. */
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
