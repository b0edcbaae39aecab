import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// A ROTATED KEY KEEPS ITS COUNT (docs/keys-and-limits.md#rate-limiting)
// `lineage` is the id of the first key of a chain of rotations: a key made by rotating another
// has its predecessor's lineage, so the rate limit counts the chain as one key. Null: the key's
// own id (every key made before this migration, and every key not made by a rotation).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys add column lineage text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys drop column lineage`.execute(db);
}
