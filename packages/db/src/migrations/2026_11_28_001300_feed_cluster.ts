import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// FEED POSITIONS THAT SURVIVE A RESTORE (docs/operating.md#backups)
// `cluster`: the system identifier of the PostgreSQL cluster the feed was last written on (made
// by initdb; a standby and a promoted standby share it, pg_dump does not carry it). Null until a
// server starts on this schema. A server that finds another cluster's identifier knows the data
// was restored or copied there, and makes new positions order after every old one and never
// equal a position the old cluster gave out after the copy (changes/advance.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table change_feed_state add column cluster text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table change_feed_state drop column cluster`.execute(db);
}
