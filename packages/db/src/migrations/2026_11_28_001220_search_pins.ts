import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// CURATED RESULTS (docs/search.md#curated-results-pins): for a query (normalised as search
// normalises it), the projects shown first and those never shown. One row, replaced whole by PUT
// /api/search/pins, as the synonyms are: `version` moves with every replace, and every process
// re-reads the pins when it does.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table search_pins (
      id smallint primary key default 1 check (id = 1),
      pins jsonb not null default '[]',
      version bigint not null default 0,
      updated_at timestamptz not null default now()
    );
    insert into search_pins (id) values (1);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table search_pins`.execute(db);
}
