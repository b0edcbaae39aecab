import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// MERGES ARE HISTORY (docs/curation.md#history-revert-locks-and-restore)
// The revision a merge stores on the project kept names the projects merged into it: `merged`, a
// JSON array of their slugs (null on every other revision). Such a revision is stored even when
// the merge changed nothing on the project kept (its duplicate had no link or tag it lacked).
// Existing rows stay null: which merge an older revision recorded is not known.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions add column merged jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions drop column merged`.execute(db);
}
