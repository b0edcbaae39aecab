import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/** The restore of an export this directory had, if any (docs/operating.md#restore-from-an-export). */
export interface RestoreRow {
  asOf: Date;
  cursor: string;
  expected: number;
  received: number;
  lastId: string | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** What makes a directory not empty: projects, deleted ones (their history), aliases, tags. */
export interface DirectoryContents {
  projects: number;
  deleted: number;
  aliases: number;
  tags: number;
}

// Any fixed text: it names the lock that serialises the batches of a restore.
const RESTORE_LOCK = 'directory:restore';

/**
 * The restore's row, read under a transaction-scoped lock that every batch takes first, so that
 * two batches (or two restores) never interleave.
 */
export async function lockRestore(trx: Db): Promise<RestoreRow | undefined> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${RESTORE_LOCK}, 0))`.execute(trx);
  return findRestore(trx);
}

export async function findRestore(db: Db): Promise<RestoreRow | undefined> {
  const { rows } = await sql<RestoreRow>`
    select as_of as "asOf", cursor, expected, received, last_id as "lastId", started_at as "startedAt",
      updated_at as "updatedAt", finished_at as "finishedAt"
    from restores
  `.execute(db);
  return rows[0];
}

/** How much the directory holds; a deleted project counts while its history is kept. */
export async function directoryContents(db: Db): Promise<DirectoryContents> {
  const { rows } = await sql<DirectoryContents>`
    select (select count(*) from projects)::int as projects,
      (select count(distinct r.project_id) from project_revisions r
        where not exists (select 1 from projects p where p.id = r.project_id))::int as deleted,
      (select count(*) from project_aliases)::int as aliases,
      (select count(*) from tags)::int as tags
  `.execute(db);
  return rows[0]!;
}

/** Records the start of a restore: the export's header. */
export async function startRestore(
  db: Db,
  header: { asOf: string; cursor: string; expected: number },
): Promise<void> {
  await sql`
    insert into restores (as_of, cursor, expected) values (${header.asOf}, ${header.cursor}, ${header.expected})
  `.execute(db);
}

/** Counts a batch in (its last id), finishing the restore when it was the last. */
export async function advanceRestore(
  db: Db,
  batch: { received: number; lastId: string | null; finished: boolean },
): Promise<void> {
  await sql`
    update restores set received = received + ${batch.received}, last_id = coalesce(${batch.lastId}, last_id),
      updated_at = now(), finished_at = ${batch.finished ? sql`now()` : sql`null`}
  `.execute(db);
}
