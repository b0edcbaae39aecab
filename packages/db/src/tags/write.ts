import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

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
