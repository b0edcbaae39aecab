import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, ProjectRevisionsTable } from '../tables.ts';

type Db = Kysely<Database>;

/** A revision without its project body (lists). */
export type RevisionSummaryRow = Omit<Selectable<ProjectRevisionsTable>, 'body_hash' | 'project'>;

export interface RevisionRow extends RevisionSummaryRow {
  /** The project as endpoint 2 showed it after this write (before it, for a delete). */
  project: Record<string, unknown>;
}

const SUMMARY = sql.raw(
  'r.project_id, r.revision, r.at, r.action, r.via, r.source, r.task_id, r.actor, r.key_id, r.key_name, r.slug, r.name, r.name_en, r.merged, r.summary, r.warnings',
);

/** A page of a project's revisions, newest first, numbered below `before` when given. */
export async function findRevisions(
  db: Db,
  projectId: string,
  options: { before?: number | undefined; limit: number },
): Promise<RevisionSummaryRow[]> {
  const { rows } = await sql<RevisionSummaryRow>`
    select ${SUMMARY} from project_revisions r
    where r.project_id = ${projectId} ${options.before === undefined ? sql`` : sql`and r.revision < ${options.before}`}
    order by r.revision desc limit ${options.limit}
  `.execute(db);
  return rows;
}

/** One revision with its project body. */
export async function findRevision(
  db: Db,
  projectId: string,
  revision: number,
): Promise<RevisionRow | undefined> {
  const { rows } = await sql<RevisionRow>`
    select ${SUMMARY}, r.project from project_revisions r
    where r.project_id = ${projectId} and r.revision = ${revision}
  `.execute(db);
  return rows[0];
}

/** A project's latest revision with its body. */
export async function findLatestRevision(db: Db, projectId: string): Promise<RevisionRow | undefined> {
  const { rows } = await sql<RevisionRow>`
    select ${SUMMARY}, r.project from project_revisions r
    where r.project_id = ${projectId} order by r.revision desc limit 1
  `.execute(db);
  return rows[0];
}

/**
 * The most recently deleted project that had this slug and is still deleted (its latest revision is
 * its delete), if any.
 */
export async function findDeletedIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const { rows } = await sql<{ project_id: string }>`
    select r.project_id from project_revisions r
    where r.action = 'deleted' and r.slug = ${slug}
      and not exists (select 1 from project_revisions n where n.project_id = r.project_id and n.revision > r.revision)
      and not exists (select 1 from projects p where p.id = r.project_id)
    order by r.at desc limit 1
  `.execute(db);
  return rows[0]?.project_id;
}

/**
 * Deleted projects (their latest revision is their delete), newest delete first, after the
 * position (at, project id) of the previous page's last.
 */
export async function listDeletedProjects(
  db: Db,
  options: { after?: { at: string; projectId: string } | undefined; limit: number },
): Promise<(RevisionSummaryRow & { at_key: string; merged_into: string | null })[]> {
  const after = options.after;
  // at_key: the exact time (microseconds) as text, for the next page's cursor; merged_into: the
  // slug of the project a merged one went into (its alias names the final target)
  const { rows } = await sql<RevisionSummaryRow & { at_key: string; merged_into: string | null }>`
    select ${SUMMARY}, r.at::text as at_key,
      case when r.via = 'merge' then (
        select p.slug from project_aliases a join projects p on p.id = a.project_id
        where a.merged_id = r.project_id limit 1
      ) end as merged_into
    from project_revisions r
    where r.action = 'deleted'
      ${after ? sql`and (r.at, r.project_id) < (${after.at}::timestamptz, ${after.projectId})` : sql``}
      and not exists (select 1 from project_revisions n where n.project_id = r.project_id and n.revision > r.revision)
      and not exists (select 1 from projects p where p.id = r.project_id)
    order by r.at desc, r.project_id desc limit ${options.limit}
  `.execute(db);
  return rows;
}
