import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// WRITES
// links_type_url_key_idx (type, url_key) is dropped: every lookup that names a type also names
// the url_key with `=` (by-url-key.ts), and links_url_key_idx finds those few rows alone, the
// type a filter on them. Every link inserted wrote into four indexes; now three (the primary
// key, the unique (project_id, url_key), url_key). No constraint rests on the dropped index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists links_type_url_key_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists links_type_url_key_idx on links (type, url_key)`.execute(db);
}
