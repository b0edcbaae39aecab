import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// UPDATES THAT MAY BE WRONG (docs/curation.md#updates-that-may-be-wrong): the warnings of the write
// that made a revision (an upsert or complete that found its project by slug only while its
// CODEHOST or WEBSITE links differ from the stored project's), a JSON array of texts; null when none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions add column warnings jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_revisions drop column warnings`.execute(db);
}
