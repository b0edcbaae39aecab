import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// EDIT SUMMARIES (docs/curation.md#edit-summaries): the X-Directory-Summary of the request that
// made a revision (why it was made), else null.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions add column summary text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions drop column summary`.execute(db);
}
