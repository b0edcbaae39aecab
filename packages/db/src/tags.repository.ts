import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

export interface StoredTag {
  /** Position of the name in the list asked for. */
  index: number;
  id: string;
  name_en: string | null;
}

/**
 * The stored tags among the given names, each with the position of its name in the list.
 * Callers match by position, not by the name read back: PGlite's wire decoding drops a
 * leading U+FEFF from text, so a name may not read back byte for byte.
 */
export async function findTagsByName(db: Db, names: string[]): Promise<StoredTag[]> {
  if (names.length === 0) return [];
  const rows = await sql<StoredTag>`
    select (u.i - 1)::int as index, t.id, t.name_en
    from unnest(${names}::text[]) with ordinality as u(name, i)
    cross join lateral (select id, name_en from tags where tags.name = u.name limit 1) t
  `.execute(db);
  return rows.rows;
}

/** Fills in nameEn on stored tags that have none; other stored fields never change. */
export async function fillTagNamesEn(db: Db, fills: { id: string; nameEn: string }[]): Promise<void> {
  if (fills.length === 0) return;
  await sql`
    update tags t set name_en = u.name_en
    from unnest(${fills.map((f) => f.id)}::text[], ${fills.map((f) => f.nameEn)}::text[]) as u(id, name_en)
    where t.id = u.id and t.name_en is null
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
    cross join lateral (
      select slug from tags where slug = b.base
      union all
      select slug from tags where slug >= b.base || '-' and slug < b.base || '.'
    ) t
  `.execute(db);
  return rows.rows.map((r) => r.slug);
}

/**
 * Inserts tags and returns the ids of those inserted; a row whose name or slug was taken
 * meanwhile is skipped (the caller tries it again).
 */
export async function insertTags(
  db: Db,
  rows: { id: string; name: string; name_en: string | null; slug: string }[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('tags')
    .values(rows.map((r) => ({ ...r })))
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}
