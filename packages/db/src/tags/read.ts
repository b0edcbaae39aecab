import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

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
