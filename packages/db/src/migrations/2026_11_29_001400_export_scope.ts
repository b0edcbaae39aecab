import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// THE EXPORT SCOPE (docs/keys-and-limits.md#named-keys-and-scopes)
// GET /api/export needs the new scope `export`. Keys that could already do everything a key can
// (those holding `keys:admin`, which may make themselves any key) are given it, so that an admin
// key made before the export existed can export; no other key gains anything.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update api_keys set scopes = array_append(scopes, 'export')
    where 'keys:admin' = any (scopes) and not ('export' = any (scopes))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update api_keys set scopes = array_remove(scopes, 'export')`.execute(db);
}
