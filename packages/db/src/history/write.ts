import { type Kysely, type RawBuilder, sql } from 'kysely';
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

/**
 * The statement that inserts revisions numbered after each project's latest, reading that latest
 * as it goes: an `updated` revision whose body hash equals the latest's is left out (nothing
 * changed), unless it records a merge. It returns `project_id, revision` of those stored; the
 * upsert's batch statement (projects/write-batch.ts) runs it as one of its parts.
 *
 * The revisions travel as one JSON parameter rather than an array per column: a tag merge sends
 * thousands of bodies at once, and the driver's escaping of text arrays and the server's parsing
 * of them took twice as long as the insert itself (bench/RESULTS.md as of commit 523d715, "Tag merge").
 */
export function revisionsInsert(
  revisions: readonly NewRevision[],
): RawBuilder<{ project_id: string; revision: number }> {
  const rows = JSON.stringify(
    revisions.map((r) => ({
      p: r.projectId,
      a: r.action,
      v: r.via,
      s: r.source,
      t: r.taskId,
      c: r.actor,
      k: r.keyId,
      kn: r.keyName,
      sl: r.slug,
      n: r.name,
      ne: r.nameEn,
      h: r.bodyHash,
      b: r.body,
      m: r.merged ?? null,
      su: r.summary,
      w: r.warnings?.length ? r.warnings : null,
    })),
  );
  return sql<{ project_id: string; revision: number }>`
    insert into project_revisions (project_id, revision, at, action, via, source, task_id, actor, key_id, key_name,
      slug, name, name_en, body_hash, project, merged, summary, warnings)
    select u.p, coalesce(l.revision, 0) + 1, now(), u.a, u.v, u.s, u.t, u.c, u.k, u.kn, u.sl, u.n, u.ne, u.h,
      u.b::json, u.m, u.su, u.w
    from json_to_recordset(${rows}::json) as u(p text, a text, v text, s text, t text, c text, k text, kn text,
      sl text, n text, ne text, h text, b text, m jsonb, su text, w jsonb)
    left join lateral (
      select revision, body_hash from project_revisions where project_id = u.p order by revision desc limit 1
    ) l on true
    where u.a <> 'updated' or u.m is not null or l.body_hash is distinct from u.h
    returning project_id, revision
  `;
}

/**
 * Inserts revisions (revisionsInsert) in one statement. Each project at most once per call. The
 * caller holds each project's row lock, so no other writer numbers the same project meanwhile.
 * Returns the numbers stored, by project.
 */
export async function insertRevisions(
  db: Db,
  revisions: readonly NewRevision[],
): Promise<Map<string, number>> {
  const numbers = new Map<string, number>();
  if (revisions.length === 0) return numbers;
  const { rows } = await revisionsInsert(revisions).execute(db);
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
