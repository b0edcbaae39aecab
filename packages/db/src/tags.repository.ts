import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

export interface TagRef {
  id: string;
  name: string;
  name_en: string | null;
}

export async function findTagsByName(db: Db, names: string[]): Promise<TagRef[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('tags')
    .select(['id', 'name', 'name_en'])
    .where('name', '=', sql<string>`any(${names}::text[])`)
    .execute();
}

/** Fills in nameEn on stored tags that have none; other stored fields never change. */
export async function fillTagNamesEn(db: Db, pairs: { name: string; nameEn: string }[]): Promise<void> {
  if (pairs.length === 0) return;
  await sql`
    update tags t set name_en = u.name_en
    from unnest(${pairs.map((p) => p.name)}::text[], ${pairs.map((p) => p.nameEn)}::text[]) as u(name, name_en)
    where t.name = u.name and t.name_en is null
  `.execute(db);
}

/**
 * Stored slugs equal to one of the bases or starting with `<base>-`. The prefix is a range
 * ('-' is followed by '.' in byte order) so that the C-collated unique index is searched, not scanned.
 */
export async function findTakenTagSlugs(db: Db, bases: string[]): Promise<string[]> {
  if (bases.length === 0) return [];
  const rows = await sql<{ slug: string }>`
    select t.slug from unnest(${bases}::text[]) as b(base)
    join tags t on t.slug = b.base or (t.slug >= b.base || '-' and t.slug < b.base || '.')
  `.execute(db);
  return rows.rows.map((r) => r.slug);
}

/** Inserts tags; a row whose name or slug is taken meanwhile is skipped (the caller retries it). */
export async function insertTags(
  db: Db,
  rows: { id: string; name: string; name_en: string | null; slug: string }[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('tags')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .returning('name')
    .execute();
  return inserted.map((r) => r.name);
}
