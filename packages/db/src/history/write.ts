import { type Kysely, sql } from 'kysely';
import type { Database, RevisionAction, RevisionVia } from '../tables.ts';

type Db = Kysely<Database>;

export interface NewRevision {
  projectId: string;
  action: RevisionAction;
  via: RevisionVia;
  source: string | null;
  taskId: string | null;
  actor: string | null;
  /** The named key that made it; null: the bootstrap key, or no key. */
  keyId: string | null;
  keyName: string | null;
  slug: string;
  name: string;
  nameEn: string | null;
  bodyHash: string;
  /** The project's JSON text. */
  body: string;
  /** A merge's revision of the project kept: the slugs merged into it (stored even if nothing changed). */
  merged?: string[] | undefined;
  /** Why (the request's X-Directory-Summary), else null. */
  summary: string | null;
  /**
   * What may be wrong with the write (an upsert matched by slug only whose links differ:
   * docs/curation.md#updates-that-may-be-wrong); absent or empty: none, stored as null.
   */
  warnings?: string[] | undefined;
}

/** A revision's warnings as the column stores them: a JSON array, or null when there are none. */
export const warningsColumn = (r: NewRevision): string | null =>
  r.warnings?.length ? JSON.stringify(r.warnings) : null;

/**
 * Inserts revisions numbered after each project's latest, in one statement that also reads that
 * latest: an `updated` revision whose body hash equals the latest's is left out (nothing changed),
 * unless it records a merge.
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
    insert into project_revisions (project_id, revision, at, action, via, source, task_id, actor, key_id, key_name,
      slug, name, name_en, body_hash, project, merged, summary, warnings)
    select u.project_id, coalesce(l.revision, 0) + 1, now(), u.action, u.via, u.source, u.task_id, u.actor, u.key_id,
      u.key_name, u.slug, u.name, u.name_en, u.body_hash, u.body::json,
      u.merged::jsonb, u.summary, u.warnings::jsonb
    from unnest(
      ${col((r) => r.projectId)}::text[], ${col((r) => r.action)}::text[], ${col((r) => r.via)}::text[],
      ${col((r) => r.source)}::text[], ${col((r) => r.taskId)}::text[], ${col((r) => r.actor)}::text[],
      ${col((r) => r.keyId)}::text[], ${col((r) => r.keyName)}::text[], ${col((r) => r.slug)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.nameEn)}::text[],
      ${col((r) => r.bodyHash)}::text[], ${col((r) => r.body)}::text[],
      ${col((r) => (r.merged ? JSON.stringify(r.merged) : null))}::text[], ${col((r) => r.summary)}::text[],
      ${col(warningsColumn)}::text[]
    ) as u(project_id, action, via, source, task_id, actor, key_id, key_name, slug, name, name_en, body_hash, body, merged,
      summary, warnings)
    left join lateral (
      select revision, body_hash from project_revisions where project_id = u.project_id order by revision desc limit 1
    ) l on true
    where u.action <> 'updated' or u.merged is not null or l.body_hash is distinct from u.body_hash
    returning project_id, revision
  `.execute(db);
  for (const row of rows) numbers.set(row.project_id, row.revision);
  return numbers;
}

/**
 * Retention (docs/curation.md#history-revert-locks-and-restore): of each project, the `keep` newest
 * revisions stay; of a deleted project (its latest revision is its delete, older than `deletedDays`),
 * every revision goes. Returns how many were removed.
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
