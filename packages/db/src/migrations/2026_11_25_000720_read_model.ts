import { type Kysely, sql } from 'kysely';

// The search read model: every server process matches, ranks, counts and pages
// in memory (@directory/search), fed by the change feed. The SQL search path goes, and with it
// what only it read: the search columns and their indexes, the denormalised tag ids and link
// types, the name sort keys, and the facet counters maintained by triggers (which also made
// every project write pay for them). The search synonyms are stored here: one row,
// replaced whole, with a version that processes compare to know when to re-read it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger if exists project_facet_counts_insert on projects;
    drop trigger if exists project_facet_counts_delete on projects;
    drop trigger if exists project_facet_counts_update on projects;
    drop function if exists project_facet_counts_insert(), project_facet_counts_delete(),
      project_facet_counts_update(), project_facet_counts_apply(text[], text[], bigint[]);
    drop table if exists project_facet_counts;
    drop index if exists projects_search_grams_idx;
    drop index if exists projects_tag_ids_idx;
    drop index if exists projects_created_idx;
    drop index if exists projects_name_sort_idx;
    drop index if exists projects_source_idx;
    alter table projects drop column search_name, drop column search_tags, drop column search_desc,
      drop column search_keys, drop column search_grams, drop column name_sort, drop column tag_ids,
      drop column link_types;
    alter table tags drop column search_name, drop column search_text, drop column name_sort;
    create table search_synonyms (
      id smallint primary key default 1 check (id = 1),
      sets jsonb not null default '[]',
      version bigint not null default 0,
      updated_at timestamptz not null default now()
    );
    insert into search_synonyms (id) values (1);
  `.execute(db);
}

// The dropped search columns held only what the data derives: they are not rebuilt here.
export async function down(_db: Kysely<unknown>): Promise<void> {
  throw new Error('2026_11_25_000600_read_model cannot be undone; restore a backup taken before it');
}
