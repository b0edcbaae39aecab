import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// HISTORY (docs/curation.md#history-revert-locks-and-restore)
// project_revisions holds one row per write of a project: its number (1, 2, … per project, the
// primary key with project_id), what was done and by which path, who asked (the request's
// X-Directory-Actor), and the whole project as endpoint 2 shows it (`project`, json: stored as
// written, TOAST-compressed when large). `body_hash` is a hash of that body without
// `updatedAt`, so that "an update that changes nothing stores no revision" is a comparison of
// two short strings, not of two documents. There is no foreign key to projects: a deleted
// project keeps its revisions (and a restore brings the project back under the same id).
//
// WHY THE WRITE PATH AND NOT A TRIGGER
// The change feed is written by statement-level triggers (2026_11_23_000300_changes), and a
// trigger would make history complete by construction too. It cannot make it right here:
// - A revision holds the project *as endpoint 2 shows it*: fields, tags and links. An upsert
//   writes the projects row first and its links and tags after, in other statements; a trigger
//   on projects fires before those exist, and triggers on links/project_tags would fire once per
//   table and statement, giving several partial revisions per write, not one. (Constraint
//   triggers, which can be deferred to commit, are row-level only: one call per row per table.)
// - A revision records `via`, `actor` and `taskId`: facts of the request that the database does
//   not know. A trigger would need them smuggled in through session settings (set_config),
//   which is exactly as easy to forget on a new write path as calling a function is, and fails
//   silently rather than at compile time.
// So every write path (core/history/record-revisions.ts) calls one function after its writes,
// in its own transaction: it reads the written projects back in one statement (the same
// statement endpoint 2 runs), compares their hashes with each project's latest revision, and
// inserts the revisions that differ in one statement. Numbering is safe without a counter
// table: every write path holds the project's row lock (the update, insert or delete of it, or
// select … for update) when it numbers a revision, so two writers of one project number one
// after the other, and the primary key would refuse a repeat (a retry, never a gap).
//
// LOCKS
// A project's lock is three columns on projects (lock_fields null = not locked): writing it
// takes the row lock, fires the feed's project.updated (the read model re-reads the project)
// and is read by the upsert's identity lookup with no extra round trip.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects
      add column lock_fields text[],
      add column lock_reason text,
      add column lock_at timestamptz;

    create table project_revisions (
      project_id text not null,
      revision integer not null,
      at timestamptz not null default now(),
      action text not null check (action in ('created', 'updated', 'deleted')),
      via text not null check (via in ('upsert', 'complete', 'merge', 'revert', 'restore', 'delete', 'lock')),
      source text,
      task_id text,
      actor text,
      slug text collate "C" not null,
      name text not null,
      name_en text,
      body_hash text not null,
      project json not null,
      primary key (project_id, revision)
    );
    -- GET /api/projects/deleted (newest first) and a deleted project's revisions by its slug
    create index project_revisions_deleted_idx on project_revisions (at desc, project_id) where action = 'deleted';
    create index project_revisions_deleted_slug_idx on project_revisions (slug, at desc) where action = 'deleted';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table project_revisions;
    alter table projects drop column lock_fields, drop column lock_reason, drop column lock_at;
  `.execute(db);
}
