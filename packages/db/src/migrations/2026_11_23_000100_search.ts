import { type Kysely, sql } from 'kysely';
import { projectSearchColumns, tagSearchColumns } from '../search-terms.ts';

// Browse and search (EXTENSIONS A). The search columns are computed in TypeScript
// (search-terms.ts) when a row is written; this migration adds them and fills them in for
// the rows written before it. It uses the write-time functions on purpose: the backfill must
// compute exactly what a write computes. A later change of those functions needs its own
// backfill migration.
//
// Per project, beside the search columns: tag_ids and link_types, denormalised so that the
// tag and link-type filters and facets read one row per project, without joins; name_sort,
// the name with Chinese spelled in pinyin, compared in C collation. One (key, id) btree per
// sort order makes every list page one index-ordered keyset scan.
const BATCH = 2000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects
      add column search_name text not null default ' ',
      add column search_tags text not null default ' ',
      add column search_desc text not null default ' ',
      add column search_keys text[] not null default '{}',
      add column search_grams text[] not null default '{}',
      add column name_sort text collate "C" not null default '',
      add column tag_ids text[] not null default '{}',
      add column link_types text[] not null default '{}';
    alter table tags
      add column search_name text not null default ' ',
      add column name_sort text collate "C" not null default '';
  `.execute(db);
  await backfillSearchColumns(db);
  await sql`
    create index projects_search_grams_idx on projects using gin (search_grams);
    create index projects_tag_ids_idx on projects using gin (tag_ids);
    create index projects_updated_idx on projects (updated_at, id);
    create index projects_created_idx on projects (created_at, id);
    create index projects_name_sort_idx on projects (name_sort, id);
    create index projects_source_idx on projects (source);
  `.execute(db);
}

/**
 * Computes the search columns of every project and tag from their stored fields. Exported
 * for the benchmark, whose seed writes rows with SQL rather than through the upsert.
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects drop column search_name, drop column search_tags, drop column search_desc,
      drop column search_keys, drop column search_grams, drop column name_sort, drop column tag_ids,
      drop column link_types;
    alter table tags drop column search_name, drop column name_sort;
  `.execute(db);
}
