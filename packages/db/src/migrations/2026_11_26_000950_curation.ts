import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// CURATION (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see)
// - A revision may be made via "edit" (PATCH /api/projects/{slug}).
// - duplicate_dismissals: pairs of projects an operator said are distinct. One row per pair,
//   the smaller id first, so that "is this pair dismissed" is one primary-key lookup whichever
//   way round it is asked. No foreign keys: a deleted project that is restored (same id) keeps
//   its dismissals, and the listing joins the live projects.
// - webhook_attempts are listed newest first by time (at, id), not by id alone.
// - A merged project's target is looked up by the merged id (restore refuses it, naming the target).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock', 'edit'));

    create table duplicate_dismissals (
      project_a text collate "C" not null,
      project_b text collate "C" not null,
      at timestamptz not null default now(),
      actor text,
      primary key (project_a, project_b),
      check (project_a < project_b)
    );
    -- the listing, newest first
    create index duplicate_dismissals_at_idx on duplicate_dismissals (at desc, project_a desc, project_b desc);
    -- "a pair of this group is not dismissed" looks pairs up from either side
    create index duplicate_dismissals_b_idx on duplicate_dismissals (project_b, project_a);

    create index webhook_attempts_webhook_at_idx on webhook_attempts (webhook_id, at desc, id desc);

    -- a merged project's target, by the merged project's id (restore, the deleted list)
    create index project_aliases_merged_id_idx on project_aliases (merged_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index project_aliases_merged_id_idx;
    drop index webhook_attempts_webhook_at_idx;
    drop table duplicate_dismissals;
    alter table project_revisions drop constraint project_revisions_via_check;
    alter table project_revisions add constraint project_revisions_via_check
      check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock'));
  `.execute(db);
}
