import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// THE WRITE PATH
// projects_updated_idx (updated_at, id) served the SQL search's "updated" sort, which the read
// model (2026_11_25_000720) replaced: nothing reads it, and every upsert moves updated_at, so it
// made every update of a project write a new entry into every index of projects (an update that
// changes no indexed column can otherwise be a HOT update: the row's new version on the same
// page, no index touched; an upsert that repeats a project changes only updated_at).
// A fill factor of 90 leaves room on each page for those new versions (pages written from now on).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists projects_updated_idx;
    alter table projects set (fillfactor = 90);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects reset (fillfactor);
    create index projects_updated_idx on projects (updated_at, id);
  `.execute(db);
}
