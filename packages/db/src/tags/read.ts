import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { TAG_VOCABULARY } from './curate.ts';

type Db = Kysely<Database>;

export interface StoredTag {
  /** Position of the name in the list asked for. */
  index: number;
  id: string;
  name_en: string | null;
  slug: string;
  /** Found through an alias (a merged tag): the name of the tag it stands for; else null. */
  alias_name: string | null;
}

/** A tag a write names: by its name, and (for a merged tag only) by its nameEn. */
export interface TagLookup {
  name: string;
  nameEn: string | null;
}

/**
 * The stored tag each lookup `u` names, as a lateral subquery `t` (docs/curation.md#tags): the tag
 * with that name, else a merged tag with that nameEn; a merged tag resolves to the tag it was
 * merged into (alias_of is always the final target).
 */
const LOOKUP = sql`cross join lateral (
    select x.id, x.name_en, x.slug, case when x.id = m.id then null else x.name end as alias_name
    from (
      (select id, alias_of from tags where tags.name = u.name limit 1)
      union all
      (select id, alias_of from tags where u.name_en is not null and tags.name_en = u.name_en
        and tags.alias_of is not null order by tags.id limit 1)
      limit 1
    ) m
    join tags x on x.id = coalesce(m.alias_of, m.id)
  ) t`;

/**
 * The stored tags among the given names, each with the position of its name in the list.
 * Callers match by position, not by the name read back: PGlite's wire decoding drops a
 * leading U+FEFF from text, so a name may not read back byte for byte.
 */
export async function findTagsByName(db: Db, lookups: TagLookup[]): Promise<StoredTag[]> {
  if (lookups.length === 0) return [];
  const rows = await sql<StoredTag>`
    select (u.i - 1)::int as index, t.id, t.name_en, t.slug, t.alias_name
    from unnest(${lookups.map((l) => l.name)}::text[], ${lookups.map((l) => l.nameEn)}::text[])
      with ordinality as u(name, name_en, i)
    ${LOOKUP}
  `.execute(db);
  return rows.rows;
}

/**
 * The first statement of an upsert (one round trip instead of three): takes the
 * transaction-scoped advisory locks on `keys` (in sorted order, as lockKeys does), then reads
 * the stored tags among `names` (as findTagsByName) and the transaction's start time (`now()`,
 * which every row the transaction writes is stamped from) in microseconds since the epoch. The
 * tags need no lock: their resolution copes with concurrent creation (core's services/tags.ts).
 * The tag vocabulary's lock is taken shared first (TAG_VOCABULARY, tags/curate.ts), before any
 * other lock, so that a tag merge never waits on a row this transaction holds; this statement's
 * tags may still predate a merge that committed while it waited, and the write of project_tags
 * then fails and is retried (migration 2026_11_28_001100_tag_curation).
 */
export async function lockKeysAndFindTags(
  db: Db,
  keys: string[],
  lookups: TagLookup[],
): Promise<{ tags: StoredTag[]; nowMicros: bigint }> {
  const sorted = [...new Set(keys)].sort();
  const { rows } = await sql<{ tags: StoredTag[] | null; now_us: string }>`
    with vocabulary as (select pg_advisory_xact_lock_shared(${TAG_VOCABULARY}::bigint) as v),
    locked as (
      select count(pg_advisory_xact_lock(hashtextextended(k, 0))) as n
      from (select k from unnest(${sorted}::text[]) with ordinality as l(k, i) order by i) l
      where (select count(*) from vocabulary) = 1
    )
    select (select n from locked) as locked,
      (extract(epoch from now()) * 1000000)::bigint::text as now_us,
      (select json_agg(json_build_object('index', (u.i - 1)::int, 'id', t.id, 'name_en', t.name_en, 'slug', t.slug,
          'alias_name', t.alias_name))
        from unnest(${lookups.map((l) => l.name)}::text[], ${lookups.map((l) => l.nameEn)}::text[])
          with ordinality as u(name, name_en, i)
        ${LOOKUP}
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
