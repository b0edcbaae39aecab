import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// One row naming this database for good: a random id made once, when the database is migrated
// for the first time (a standby replays it, a copy of the files keeps it). A server keeps a
// snapshot of its read model on local disk with this id, and loads it only into a database
// with the same one, never into another database that happens to have the same name on the
// same cluster (docs/search.md, "Restarts: the model's snapshot").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table database_instance (
      id text primary key default gen_random_uuid()::text,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`insert into database_instance default values`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists database_instance`.execute(db);
}
