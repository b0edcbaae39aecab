import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// CURATED TAGS (docs/curation.md#tags)
// - tags.alias_of: a merged tag stays as a row (its name, nameEn and slug still name it) that
//   points at the tag it was merged into, always the final target (a merge into a tag that is
//   itself later merged moves the pointers on), so resolving an alias is one lookup.
// - A merged tag may lose its name (null) to the tag it was merged into: renaming the target to
//   the name of one of its aliases moves the name over (a write naming it still finds the target).
// - changes.tag_id and the type "tag.updated": a rename or a merge writes one change per tag it
//   changed, so that the read model of every process (and a feed reader) learns of it.
// - No project may keep an alias as a tag. A merge takes the advisory lock TAG_VOCABULARY
//   exclusively for its transaction; every statement that inserts or changes project_tags
//   takes it shared (the trigger below), then refuses, as a serialization failure (40001, which
//   the writer retries whole), a row naming an alias: a write that resolved its tags before a
//   merge committed resolves them again. The statement-level check reads only aliases (a
//   partial index), so it costs nothing while there are none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tags add column alias_of text references tags (id);
    alter table tags alter column name drop not null;
    alter table tags add constraint tags_name_of_live check (name is not null or alias_of is not null);
    create index tags_alias_of_idx on tags (alias_of) where alias_of is not null;
    -- a write naming a merged tag by its nameEn (services/tags.ts)
    create index tags_alias_name_en_idx on tags (name_en) where alias_of is not null;

    alter table changes add column tag_id text;

    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit', 'tag-merge'));

    create function project_tags_no_alias() returns trigger language plpgsql as $$
    begin
      -- TAG_VOCABULARY (packages/db/src/tags/curate.ts)
      perform pg_advisory_xact_lock_shared(7272740010);
      if exists (select 1 from tags a where a.alias_of is not null)
        and exists (select 1 from new_rows n join tags t on t.id = n.tag_id where t.alias_of is not null) then
        raise exception 'a tag of this write was merged into another meanwhile' using errcode = '40001';
      end if;
      return null;
    end $$;
    create trigger project_tags_no_alias_insert after insert on project_tags
      referencing new table as new_rows for each statement execute function project_tags_no_alias();
    create trigger project_tags_no_alias_update after update on project_tags
      referencing new table as new_rows for each statement execute function project_tags_no_alias();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger project_tags_no_alias_insert on project_tags;
    drop trigger project_tags_no_alias_update on project_tags;
    drop function project_tags_no_alias;
    delete from project_revisions where via = 'tag-merge';
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit'));
    delete from changes where tag_id is not null;
    alter table changes drop column tag_id;
    drop index tags_alias_name_en_idx;
    drop index tags_alias_of_idx;
    update tags set name = slug where name is null;
    alter table tags drop constraint tags_name_of_live;
    alter table tags alter column name set not null;
    alter table tags drop column alias_of;
  `.execute(db);
}
