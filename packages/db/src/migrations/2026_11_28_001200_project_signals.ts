import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// SIGNALS (docs/search.md#signals-and-standing): what a writer may say of a project's reach, its
// stars and its downloads, each a whole number ≥ 0 (at most 2^53 − 1, a JavaScript safe integer);
// null when never sent. A write that leaves one out keeps the stored value.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects
      add column stars bigint check (stars >= 0),
      add column downloads bigint check (downloads >= 0)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table projects drop column stars, drop column downloads`.execute(db);
}
