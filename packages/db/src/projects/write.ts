import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, NewProjectRow } from '../tables.ts';

type Db = Kysely<Database>;

export type ProjectFields = Omit<NewProjectRow, 'id' | 'slug' | 'created_at' | 'updated_at'>;

/**
 * Rows written by one batch are stamped with the transaction's time plus their position in
 * microseconds, so that projects created by one batch still have a definite age order
 * ("the oldest project wins") and a project created then updated in one batch reads in order.
 */
export interface ProjectWrite {
  id: string;
  fields: ProjectFields;
  position: number;
  /** Inserts only: a restored project's original creation time and lock (default: now, none). */
  createdAt?: string | undefined;
  lock?: { fields: string[]; reason: string | null; at: string } | null | undefined;
}

/** The columns of ProjectFields, in the order of fieldArrays' arrays (as unnest()'s column names too). */
export const FIELD_COLUMNS = sql.raw(
  'name, name_en, description, description_en, content, content_en, status, source, stars, downloads',
);
/** Those columns read from unnest() as `u`. */
export const FIELD_VALUES = sql.raw(
  'u.name, u.name_en, u.description, u.description_en, u.content, u.content_en, u.status, u.source, u.stars, u.downloads',
);
/**
 * An update's assignment of those columns from unnest() as `u` (of the projects as `p`): a signal
 * left out (null) keeps the stored one (docs/decisions.md#signals).
 */
export const FIELD_SET = sql.raw(`name = u.name, name_en = u.name_en, description = u.description,
  description_en = u.description_en, content = u.content, content_en = u.content_en,
  status = u.status, source = u.source, stars = coalesce(u.stars, p.stars),
  downloads = coalesce(u.downloads, p.downloads)`);

/** The rows' fields as unnest()'s arrays, in the order of FIELD_COLUMNS (status defaults to ACTIVE). */
export function fieldArrays(rows: readonly ProjectWrite[]): RawBuilder<unknown> {
  const column = <T>(pick: (f: ProjectFields) => T) => rows.map((r) => pick(r.fields));
  return sql`${column((f) => f.name)}::text[], ${column((f) => f.name_en)}::text[],
    ${column((f) => f.description)}::text[], ${column((f) => f.description_en)}::text[],
    ${column((f) => f.content)}::text[], ${column((f) => f.content_en)}::text[],
    ${column((f) => f.status ?? 'ACTIVE')}::text[], ${column((f) => f.source)}::text[],
    ${column((f) => f.stars ?? null)}::int8[], ${column((f) => f.downloads ?? null)}::int8[]`;
}

/** Lists travel to unnest() joined by U+0001 (no value holds it). */
const SEP = '\u0001';

/** Inserts new projects in one statement. */
export async function insertProjects(db: Db, rows: (ProjectWrite & { slug: string })[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into projects (id, slug, ${FIELD_COLUMNS}, created_at, updated_at, lock_fields, lock_reason, lock_at)
    select u.id, u.slug, ${FIELD_VALUES}, coalesce(u.created_at, u.at), u.at,
      string_to_array(u.lock_fields, chr(1)), u.lock_reason, u.lock_at
    from (
      select *, now() + u.position * interval '1 microsecond' as at
      from unnest(
        ${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.slug)}::text[], ${fieldArrays(rows)},
        ${rows.map((r) => r.position)}::int[],
        ${rows.map((r) => r.createdAt ?? null)}::timestamptz[],
        ${rows.map((r) => r.lock?.fields.join(SEP) ?? null)}::text[],
        ${rows.map((r) => r.lock?.reason ?? null)}::text[], ${rows.map((r) => r.lock?.at ?? null)}::timestamptz[]
      ) as u(id, slug, ${FIELD_COLUMNS}, position, created_at, lock_fields, lock_reason, lock_at)
    ) u
  `.execute(db);
}

/** Overwrites every field but id, slug and created_at of existing projects, in one statement. */
export async function updateProjects(db: Db, rows: ProjectWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update projects p set ${FIELD_SET}, updated_at = now() + u.position * interval '1 microsecond'
    from unnest(
      ${rows.map((r) => r.id)}::text[], ${fieldArrays(rows)}, ${rows.map((r) => r.position)}::int[]
    ) as u(id, ${FIELD_COLUMNS}, position)
    where p.id = u.id
  `.execute(db);
}

export interface DeletedProjectRow {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  linksCount: number;
  tagsCount: number;
}

/**
 * Deletes a project by slug in one statement; links and tag associations go by cascade, tasks
 * keep their row with project_id null. The counts are read from the statement's snapshot,
 * which is taken before the delete.
 */
export async function deleteProjectBySlug(db: Db, slug: string): Promise<DeletedProjectRow | undefined> {
  const result = await sql<DeletedProjectRow>`
    with d as (delete from projects where slug = ${slug} returning id, name, name_en, slug)
    select d.id, d.name, d.name_en as "nameEn", d.slug,
      (select count(*) from links l where l.project_id = d.id)::int as "linksCount",
      (select count(*) from project_tags pt where pt.project_id = d.id)::int as "tagsCount"
    from d
  `.execute(db);
  return result.rows[0];
}

/** Sets or clears (fields null) a project's lock. */
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
