import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/** A table as the move reads and writes it: its columns, its primary key, its sequences. */
export interface TableShape {
  name: string;
  /** Every column that is written (generated columns are not). */
  columns: string[];
  key: string[];
  /** Columns whose values come from a sequence (identity or serial), with the sequence. */
  sequences: { column: string; sequence: string; identity: boolean }[];
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function tableShape(db: Db, name: string): Promise<TableShape> {
  const { rows: columns } = await sql<{ column: string; identity: string; sequence: string | null }>`
    select column_name as column, is_identity as identity,
      pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
    from information_schema.columns
    where table_schema = current_schema() and table_name = ${name} and is_generated = 'NEVER'
    order by ordinal_position
  `.execute(db);
  const { rows: key } = await sql<{ column: string }>`
    select a.attname as column
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
    where i.indrelid = to_regclass(quote_ident(${name})) and i.indisprimary
    order by array_position(i.indkey::int2[], a.attnum)
  `.execute(db);
  if (key.length === 0) throw new Error(`Table ${name} has no primary key: the move copies in key order`);
  return {
    name,
    columns: columns.map((c) => c.column),
    key: key.map((k) => k.column),
    sequences: columns.flatMap((c) =>
      c.sequence ? [{ column: c.column, sequence: c.sequence, identity: c.identity === 'YES' }] : [],
    ),
  };
}

export interface CopyOptions {
  /** Rows per statement; Infinity copies the table in one statement. */
  chunk: number;
  /** Called after every statement with the rows copied so far. */
  onRows?: (rows: number) => void;
}

interface Page {
  rows: string | null;
  last: string | null;
  n: number;
}

/**
 * Copies a table in key order, a page a statement: the source renders the page as one JSON array
 * (json_agg), the target takes it whole (json_populate_recordset), so a page is one round trip
 * each way and Node never parses a row. The next page is read while the target writes this one.
 * Values cross as PostgreSQL's own text (timestamps with their offset, bigints as digits).
 */
export async function copyTable(
  source: Db,
  target: Db,
  shape: TableShape,
  options: CopyOptions,
): Promise<number> {
  const t = ident(shape.name);
  const cols = shape.columns.map(ident).join(', ');
  const key = shape.key.map(ident).join(', ');
  const keyDesc = shape.key.map((k) => `${ident(k)} desc`).join(', ');
  const keyObject = shape.key.map((k) => `'${k.replaceAll("'", "''")}', ${ident(k)}`).join(', ');
  const limit = Number.isFinite(options.chunk) ? String(options.chunk) : 'all';
  const overriding = shape.sequences.some((s) => s.identity) ? 'overriding system value' : '';
  const readPage = async (last: string | null): Promise<Page> => {
    const after =
      last === null
        ? sql`true`
        : sql`(${sql.raw(key)}) > (select ${sql.raw(key)} from json_populate_record(null::${sql.raw(t)}, ${last}::json))`;
    const { rows } = await sql<Page>`
      with page as materialized (
        select ${sql.raw(cols)} from ${sql.raw(t)} where ${after} order by ${sql.raw(key)} limit ${sql.raw(limit)}
      )
      select (select json_agg(page)::text from page) as rows,
        (select json_build_object(${sql.raw(keyObject)})::text from page order by ${sql.raw(keyDesc)} limit 1) as last,
        (select count(*)::int from page) as n
    `.execute(source);
    return rows[0] as Page;
  };
  let copied = 0;
  let writing: Promise<unknown> = Promise.resolve();
  let page = await readPage(null);
  while (page.n > 0 && page.rows !== null) {
    const rows = page.rows;
    await writing;
    writing = sql`
      insert into ${sql.raw(t)} (${sql.raw(cols)}) ${sql.raw(overriding)}
      select ${sql.raw(cols)} from json_populate_recordset(null::${sql.raw(t)}, ${rows}::json)
    `.execute(target);
    // a failed write is awaited (and thrown) below; this only keeps it from being reported unhandled meanwhile
    writing.catch(() => {});
    copied += page.n;
    options.onRows?.(copied);
    if (!Number.isFinite(options.chunk) || page.n < options.chunk) break;
    page = await readPage(page.last);
  }
  await writing;
  return copied;
}

/** Sets each sequence of the table in the target where it stands in the source (past every id given out). */
export async function copySequences(source: Db, target: Db, shape: TableShape): Promise<void> {
  for (const { sequence } of shape.sequences) {
    const { rows } = await sql<{ last: string; called: boolean }>`
      select last_value::text as last, is_called as called from ${sql.raw(sequence)}
    `.execute(source);
    const state = rows[0];
    if (!state) continue;
    await sql`select setval(${sequence}, ${state.last}::bigint, ${state.called})`.execute(target);
  }
}
