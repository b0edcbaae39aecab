import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

export interface StoredTag {
  /** Position of the name in the list asked for. */
  index: number;
  id: string;
  name_en: string | null;
  slug: string;
}

/**
 * The stored tags among the given names, each with the position of its name in the list.
 * Callers match by position, not by the name read back: PGlite's wire decoding drops a
 * leading U+FEFF from text, so a name may not read back byte for byte.
 */
export async function findTagsByName(db: Db, names: string[]): Promise<StoredTag[]> {
  if (names.length === 0) return [];
  const rows = await sql<StoredTag>`
    select (u.i - 1)::int as index, t.id, t.name_en, t.slug
    from unnest(${names}::text[]) with ordinality as u(name, i)
    cross join lateral (select id, name_en, slug from tags where tags.name = u.name limit 1) t
  `.execute(db);
  return rows.rows;
}

/**
 * The first statement of an upsert (one round trip instead of three): takes the
 * transaction-scoped advisory locks on `keys` (in sorted order, as lockKeys does), then reads
 * the stored tags among `names` (as findTagsByName) and the transaction's start time (`now()`,
 * which every row the transaction writes is stamped from) in microseconds since the epoch. The
 * tags need no lock: their resolution copes with concurrent creation (core's services/tags.ts).
 */
export async function lockKeysAndFindTags(
  db: Db,
  keys: string[],
  names: string[],
): Promise<{ tags: StoredTag[]; nowMicros: bigint }> {
  const sorted = [...new Set(keys)].sort();
  const { rows } = await sql<{ tags: StoredTag[] | null; now_us: string }>`
    with locked as (
      select count(pg_advisory_xact_lock(hashtextextended(k, 0))) as n
      from (select k from unnest(${sorted}::text[]) with ordinality as l(k, i) order by i) l
    )
    select (select n from locked) as locked,
      (extract(epoch from now()) * 1000000)::bigint::text as now_us,
      (select json_agg(json_build_object('index', (u.i - 1)::int, 'id', t.id, 'name_en', t.name_en, 'slug', t.slug))
        from unnest(${names}::text[]) with ordinality as u(name, i)
        cross join lateral (select id, name_en, slug from tags where tags.name = u.name limit 1) t
        where (select n from locked) >= 0) as tags
  `.execute(db);
  const row = rows[0]!;
  return { tags: row.tags ?? [], nowMicros: BigInt(row.now_us) };
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
