import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// WEBHOOK SECRET ROTATION (docs/changes-and-webhooks.md#rotating-a-webhooks-secret): the secret a rotation
// replaced, still signing every delivery (beside the new one) until previous_secret_until; both null when
// there is no grace period.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column previous_secret text, add column previous_secret_until timestamptz`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks drop column previous_secret, drop column previous_secret_until`.execute(db);
}
