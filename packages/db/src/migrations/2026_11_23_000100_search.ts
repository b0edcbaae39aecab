import { type Kysely, sql } from 'kysely';
import { backfillSearchColumns } from '../backfill/search-columns.ts';

// Browse and search (docs/search.md#browsing-and-search-get-apiprojects-get-apitags). The search columns
// were computed in TypeScript (backfill/search-terms.ts) when a row was written; this migration adds them
// and fills them in for the rows written before it (backfill/search-columns.ts). Migration
// 2026_11_25_000720_read_model drops them again: on a database older than this one, the backfill runs and
// its result goes.
//
// Per project, beside the search columns: tag_ids and link_types, denormalised so that the
// tag and link-type filters and facets read one row per project, without joins; name_sort,
// the name with Chinese spelled in pinyin, compared in C collation. One (key, id) btree per
// sort order makes every list page one index-ordered keyset scan.
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects drop column search_name, drop column search_tags, drop column search_desc,
      drop column search_keys, drop column search_grams, drop column name_sort, drop column tag_ids,
      drop column link_types;
    alter table tags drop column search_name, drop column name_sort;
  `.execute(db);
}
