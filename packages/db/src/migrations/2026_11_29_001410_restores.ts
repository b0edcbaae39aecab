import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// RESTORE FROM AN EXPORT (docs/operating.md#restore-from-an-export)
// - restores: the one restore of an export a directory may have had, written in batches: the
//   export's header (as_of, feed cursor, count), how far it got (received, last_id: the batches
//   come in id order) and, once its last batch checked the count, finished_at. A row without
//   finished_at is a restore that stopped half-way: it is shown (GET /api/restore), resumed by
//   the same export, and refuses any other.
// - A restored project's one revision is made via "import-restore".
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table restores (
      singleton boolean primary key default true check (singleton),
      as_of timestamptz not null,
      cursor text not null,
      expected integer not null,
      received integer not null default 0,
      last_id text collate "C",
      started_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz
    );
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit', 'tag-merge',
        'import-restore'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table restores;
    delete from project_revisions where via = 'import-restore';
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit', 'tag-merge'));
  `.execute(db);
}
