import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, ProjectRevisionsTable, RevisionAction, RevisionVia } from './tables.ts';

type Db = Kysely<Database>;

/** A revision without its project body (lists). */
export type RevisionSummaryRow = Omit<Selectable<ProjectRevisionsTable>, 'body_hash' | 'project'>;

export interface RevisionRow extends RevisionSummaryRow {
  /** The project as endpoint 2 showed it after this write (before it, for a delete). */
  project: Record<string, unknown>;
}

export interface NewRevision {
  projectId: string;
  action: RevisionAction;
  via: RevisionVia;
  source: string | null;
  taskId: string | null;
  actor: string | null;
  slug: string;
  name: string;
  nameEn: string | null;
  bodyHash: string;
  /** The project's JSON text. */
  body: string;
}

const SUMMARY = sql.raw(
  'r.project_id, r.revision, r.at, r.action, r.via, r.source, r.task_id, r.actor, r.slug, r.name, r.name_en',
);

/**
 * Inserts revisions numbered after each project's latest, in one statement that also reads that
 * latest: an `updated` revision whose body hash equals the latest's is left out (nothing changed).
 * Each project at most once per call. The caller holds each project's row lock, so no other
 * writer numbers the same project meanwhile. Returns the numbers stored, by project.
 */
export async function insertRevisions(
  db: Db,
  revisions: readonly NewRevision[],
): Promise<Map<string, number>> {
  const numbers = new Map<string, number>();
  if (revisions.length === 0) return numbers;
  const col = <T>(pick: (r: NewRevision) => T) => revisions.map(pick);
  const { rows } = await sql<{ project_id: string; revision: number }>`
    insert into project_revisions (project_id, revision, at, action, via, source, task_id, actor, slug, name,
      name_en, body_hash, project)
    select u.project_id, coalesce(l.revision, 0) + 1, now(), u.action, u.via, u.source, u.task_id, u.actor, u.slug,
      u.name, u.name_en, u.body_hash, u.body::json
    from unnest(
      ${col((r) => r.projectId)}::text[], ${col((r) => r.action)}::text[], ${col((r) => r.via)}::text[],
      ${col((r) => r.source)}::text[], ${col((r) => r.taskId)}::text[], ${col((r) => r.actor)}::text[],
      ${col((r) => r.slug)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.nameEn)}::text[],
      ${col((r) => r.bodyHash)}::text[], ${col((r) => r.body)}::text[]
    ) as u(project_id, action, via, source, task_id, actor, slug, name, name_en, body_hash, body)
    left join lateral (
      select revision, body_hash from project_revisions where project_id = u.project_id order by revision desc limit 1
    ) l on true
    where u.action <> 'updated' or l.body_hash is distinct from u.body_hash
    returning project_id, revision
  `.execute(db);
  for (const row of rows) numbers.set(row.project_id, row.revision);
  return numbers;
}

/** A page of a project's revisions, newest first, numbered below `before` when given. */
export async function listRevisions(
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
): Promise<(RevisionSummaryRow & { at_key: string })[]> {
  const after = options.after;
  // at_key: the exact time (microseconds) as text, for the next page's cursor
  const { rows } = await sql<RevisionSummaryRow & { at_key: string }>`
    select ${SUMMARY}, r.at::text as at_key from project_revisions r
    where r.action = 'deleted'
      ${after ? sql`and (r.at, r.project_id) < (${after.at}::timestamptz, ${after.projectId})` : sql``}
      and not exists (select 1 from project_revisions n where n.project_id = r.project_id and n.revision > r.revision)
      and not exists (select 1 from projects p where p.id = r.project_id)
    order by r.at desc, r.project_id desc limit ${options.limit}
  `.execute(db);
  return rows;
}

/** Sets or clears (fields null) a project's lock; returns whether the row exists. */
export async function writeProjectLock(
  db: Db,
  projectId: string,
  lock: { fields: string[]; reason: string | null } | null,
): Promise<void> {
  await sql`
    update projects set lock_fields = ${lock ? lock.fields : null}::text[], lock_reason = ${lock?.reason ?? null},
      lock_at = ${lock ? sql`now()` : sql`null`}
    where id = ${projectId}
  `.execute(db);
}

/** The project (slug and id) that owns a link with any of these url keys, other than `exceptId`. */
export async function findLinkKeyOwner(
  db: Db,
  urlKeys: readonly string[],
  exceptId: string,
): Promise<{ slug: string; urlKey: string } | undefined> {
  if (urlKeys.length === 0) return undefined;
  const { rows } = await sql<{ slug: string; url_key: string }>`
    select p.slug, l.url_key from links l join projects p on p.id = l.project_id
    where l.url_key = any(${[...urlKeys]}::text[]) and l.project_id <> ${exceptId}
    limit 1
  `.execute(db);
  const row = rows[0];
  return row && { slug: row.slug, urlKey: row.url_key };
}

/** Who holds a slug: a project, an alias (naming its target), or nobody. */
export async function findSlugHolder(
  db: Db,
  slug: string,
): Promise<{ kind: 'project'; id: string } | { kind: 'alias'; target: string } | undefined> {
  const { rows } = await sql<{ kind: 'project' | 'alias'; id: string }>`
    select 'project' as kind, id from projects where slug = ${slug}
    union all
    select 'alias' as kind, p.slug as id from project_aliases a join projects p on p.id = a.project_id
    where a.slug = ${slug}
    limit 1
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return row.kind === 'project' ? { kind: 'project', id: row.id } : { kind: 'alias', target: row.id };
}

/**
 * Retention (EXTENSIONS F): of each project, the `keep` newest revisions stay; of a deleted project
 * (its latest revision is its delete, older than `deletedDays`), every revision goes. Returns how
 * many were removed.
 */
export async function pruneRevisions(db: Db, keep: number, deletedDays: number): Promise<number> {
  const old = await sql`
    delete from project_revisions r using (
      select project_id, max(revision) as latest from project_revisions
      group by project_id having count(*) > ${keep}
    ) m
    where r.project_id = m.project_id and r.revision <= m.latest - ${keep}
  `.execute(db);
  const gone = await sql`
    delete from project_revisions r using (
      select d.project_id from project_revisions d
      where d.action = 'deleted' and d.at < now() - make_interval(days => ${deletedDays})
        and not exists (select 1 from project_revisions n where n.project_id = d.project_id and n.revision > d.revision)
        and not exists (select 1 from projects p where p.id = d.project_id)
    ) x
    where r.project_id = x.project_id
  `.execute(db);
  return Number(old.numAffectedRows ?? 0n) + Number(gone.numAffectedRows ?? 0n);
}
