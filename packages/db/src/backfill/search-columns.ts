import { type Kysely, sql } from 'kysely';
import { projectSearchColumns, tagSearchColumns } from './search-terms.ts';

// The backfills of the search columns of migrations 2026_11_23_000100_search and
// 2026_11_24_000500_tag_search, kept here so that the migrations import no application code.
// Migration 2026_11_25_000720_read_model drops those columns: the backfills only run on databases
// older than it (and in the benchmark, on a schema that still has them).

/** Rows per statement. */
const BATCH = 2000;

/**
 * Computes the search columns of every project and tag from their stored fields. Run by
 * migration 2026_11_23_000100_search, and by the benchmark, whose seed writes rows with SQL
 * rather than through the upsert.
 */
export async function backfillSearchColumns(db: Kysely<unknown>): Promise<void> {
  for (let after = ''; ; ) {
    const { rows } = await sql<{
      id: string;
      name: string;
      name_en: string | null;
      slug: string;
      description: string;
      description_en: string | null;
      tags: { id: string; name: string; name_en: string | null }[];
      link_types: string[];
    }>`
      select p.id, p.name, p.name_en, p.slug, p.description, p.description_en,
        coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'name_en', t.name_en) order by pt.position)
          from project_tags pt join tags t on t.id = pt.tag_id where pt.project_id = p.id), '[]') as tags,
        array(select distinct l.type from links l where l.project_id = p.id order by 1) as link_types
      from projects p where p.id > ${after} order by p.id limit ${BATCH}
    `.execute(db);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const cols = rows.map((r) =>
      projectSearchColumns({
        name: r.name,
        nameEn: r.name_en,
        slug: r.slug,
        description: r.description,
        descriptionEn: r.description_en,
        tags: r.tags.map((t) => ({ name: t.name, nameEn: t.name_en })),
      }),
    );
    await sql`
      update projects p set search_name = u.search_name, search_tags = u.search_tags,
        search_desc = u.search_desc, search_keys = string_to_array(u.search_keys, chr(1)),
        search_grams = string_to_array(u.search_grams, chr(1)), name_sort = u.name_sort,
        tag_ids = string_to_array(u.tag_ids, chr(1)), link_types = string_to_array(u.link_types, chr(1))
      from unnest(
        ${rows.map((r) => r.id)}::text[], ${cols.map((c) => c.search_name)}::text[],
        ${cols.map((c) => c.search_tags)}::text[], ${cols.map((c) => c.search_desc)}::text[],
        ${cols.map((c) => c.search_keys.join('\u0001'))}::text[], ${cols.map((c) => c.search_grams.join('\u0001'))}::text[],
        ${cols.map((c) => c.name_sort)}::text[], ${rows.map((r) => r.tags.map((t) => t.id).join('\u0001'))}::text[],
        ${rows.map((r) => r.link_types.join('\u0001'))}::text[]
      ) as u(id, search_name, search_tags, search_desc, search_keys, search_grams, name_sort, tag_ids, link_types)
      where p.id = u.id
    `.execute(db);
  }

  const { rows: tags } = await sql<{ id: string; name: string; name_en: string | null; slug: string }>`
    select id, name, name_en, slug from tags
  `.execute(db);
  if (tags.length > 0) {
    const cols = tags.map((t) => tagSearchColumns({ name: t.name, nameEn: t.name_en, slug: t.slug }));
    await sql`
      update tags t set search_name = u.search_name, name_sort = u.name_sort
      from unnest(${tags.map((t) => t.id)}::text[], ${cols.map((c) => c.search_name)}::text[],
        ${cols.map((c) => c.name_sort)}::text[]) as u(id, search_name, name_sort)
      where t.id = u.id
    `.execute(db);
  }
}

/**
 * Computes every tag's search_text. Run by migration 2026_11_24_000500_tag_search, and by the
 * benchmark, whose seed writes tags with SQL.
 */
export async function backfillTagSearchText(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; name: string; name_en: string | null; slug: string }>`
    select id, name, name_en, slug from tags
  `.execute(db);
  if (rows.length === 0) return;
  const texts = rows.map(
    (t) => tagSearchColumns({ name: t.name, nameEn: t.name_en, slug: t.slug }).search_text,
  );
  await sql`
    update tags t set search_text = u.search_text
    from unnest(${rows.map((t) => t.id)}::text[], ${texts}::text[]) as u(id, search_text)
    where t.id = u.id
  `.execute(db);
}
