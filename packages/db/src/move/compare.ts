import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { ident, type TableShape } from './copy-table.ts';

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

export interface TableSum {
  rows: number;
  /** md5 over the md5 of every row's text, in primary key order. */
  sum: string;
}

/** Every row of the table read back: the same SQL on both sides (after sameTextSettings). */
export async function tableSum(db: Db, shape: TableShape): Promise<TableSum> {
  const row = shape.columns.map(ident).join(', ');
  const key = shape.key.map(ident).join(', ');
  const { rows } = await sql<{ rows: number; sum: string }>`
    select count(*)::int as rows,
      md5(coalesce(string_agg(md5(row(${sql.raw(row)})::text), '' order by ${sql.raw(key)}), '')) as sum
    from ${sql.raw(ident(shape.name))}
  `.execute(db);
  return rows[0] as TableSum;
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
