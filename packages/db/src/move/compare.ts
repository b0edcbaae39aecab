import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * Fixes every setting that changes how a value is written as text, so that the same rows give
 * the same text on PGlite and on PostgreSQL (of any version since 12): call inside the
 * transaction the checksums run in.
 */
export async function sameTextSettings(db: Db): Promise<void> {
  await sql`
    select set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true),
      set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '1', true),
      set_config('bytea_output', 'hex', true)
  `.execute(db);
}

/** The names of the base tables of the connection's schema. */
export async function baseTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name
  `.execute(db);
  return rows.map((r) => r.name);
}

/** The migrations a database has run, by name. */
export async function migrationNames(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}
