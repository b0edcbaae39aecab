import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// UNDOING A TAG MERGE (docs/curation.md#undoing-a-merge)
// - tag_merges: the last merge of each merged tag that can still be undone: the tag it went into
//   and the aliases it had then (they moved with it). An unmerge deletes its row; a merge made
//   before this migration has none, and cannot be undone.
// - tag_merge_projects: the projects that merge moved, each with its tag ids in order as before
//   the merge and the number of the revision the merge stored: an unmerge gives a project its tags
//   back only while that revision is still its latest (docs/decisions.md#what-changed-since-a-tag-merge-means).
//   No foreign key to projects: a project deleted since is reported, not restored.
// - A project's revision made by an unmerge is via "tag-unmerge".
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table tag_merges (
      tag_id text primary key references tags (id),
      into_id text not null references tags (id),
      aliases text[] not null,
      merged_at timestamptz not null default now()
    );
    create table tag_merge_projects (
      tag_id text not null references tag_merges (tag_id) on delete cascade,
      project_id text not null,
      tags text[] not null,
      revision integer not null default 0,
      primary key (tag_id, project_id)
    );
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit', 'tag-merge',
        'import-restore', 'tag-unmerge'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table tag_merge_projects;
    drop table tag_merges;
    delete from project_revisions where via = 'tag-unmerge';
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit', 'tag-merge',
        'import-restore'));
  `.execute(db);
}
