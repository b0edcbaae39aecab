import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// MERGES AND ALIASES (docs/curation.md#same-project-other-spelling)
// A merge removes a project and keeps its slug as an alias of the project it went into:
// project_aliases (slug → project_id). `merged_id` is the id the removed project had, so that
// the feed can say which project went where. A later merge of the target moves its aliases on
// (the merge updates project_id), so every alias names the final target: one lookup, no chain
// to walk. Deleting a target deletes its aliases (on delete cascade): the old slugs are then
// unknown (404), as the target's own is.
//
// THE FEED
// The delete trigger of projects now writes `project.merged` instead of `project.deleted` for a
// project that leaves by a merge (the merge writes its alias before it deletes it, in the same
// transaction), with the target's id and slug in into_project_id / into_slug, so that a reader
// (the read model, a webhook) drops the source and re-reads the target from one change.
//
// DUPLICATES BY NAME
// GET /api/projects/duplicates groups projects whose name or English name is the same once
// lower-cased with spaces and punctuation removed: expression indexes on exactly that
// expression (projects_name_key_idx, projects_name_en_key_idx; the repository's NAME_KEY uses
// the same text) let the groups be read in key order, a page at a time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table project_aliases (
      slug text collate "C" primary key,
      project_id text not null references projects (id) on delete cascade,
      merged_id text not null,
      created_at timestamptz not null default now()
    );
    create index project_aliases_project_id_idx on project_aliases (project_id);

    alter table changes add column into_project_id text, add column into_slug text;

    create or replace function changes_of_projects() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into changes (type, project_id, slug)
          select 'project.created', n.id, n.slug from new_rows n order by n.created_at, n.id;
      elsif tg_op = 'UPDATE' then
        insert into changes (type, project_id, slug)
          select 'project.updated', n.id, n.slug from new_rows n order by n.updated_at, n.id;
      else
        insert into changes (type, project_id, slug, into_project_id, into_slug)
          select case when a.slug is null then 'project.deleted' else 'project.merged' end,
            o.id, o.slug, a.project_id, t.slug
          from old_rows o
          left join project_aliases a on a.slug = o.slug and a.merged_id = o.id
          left join projects t on t.id = a.project_id
          order by o.id;
      end if;
      return null;
    end $$;

    create index projects_name_key_idx on projects
      ((lower(regexp_replace(name, '[[:space:][:punct:]]+', '', 'g'))) collate "C");
    create index projects_name_en_key_idx on projects
      ((lower(regexp_replace(name_en, '[[:space:][:punct:]]+', '', 'g'))) collate "C")
      where name_en is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index projects_name_key_idx, projects_name_en_key_idx;
    create or replace function changes_of_projects() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into changes (type, project_id, slug)
          select 'project.created', n.id, n.slug from new_rows n order by n.created_at, n.id;
      elsif tg_op = 'UPDATE' then
        insert into changes (type, project_id, slug)
          select 'project.updated', n.id, n.slug from new_rows n order by n.updated_at, n.id;
      else
        insert into changes (type, project_id, slug)
          select 'project.deleted', o.id, o.slug from old_rows o order by o.id;
      end if;
      return null;
    end $$;
    alter table changes drop column into_project_id, drop column into_slug;
    drop table project_aliases;
  `.execute(db);
}
