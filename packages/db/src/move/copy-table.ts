import { createHash, type Hash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Database } from '../tables.ts';
import { copyIn, copyOut } from './protocol.ts';

type Db = Kysely<Database>;

/** A table as the move reads and writes it: its columns, its primary key, its sequences. */
export interface TableShape {
  name: string;
  /** Every column that is written (generated columns are not). */
  columns: string[];
  key: string[];
  /** The sequences its ids come from (identity or serial columns). */
  sequences: string[];
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function tableShape(db: Db, name: string): Promise<TableShape> {
  const { rows: columns } = await sql<{ column: string; sequence: string | null }>`
    select column_name as column, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
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
    sequences: columns.flatMap((c) => (c.sequence ? [c.sequence] : [])),
  };
}

/** The source: the embedded database's own API (COPY to a blob) and Kysely, in one transaction. */
export interface SourceSide {
  db: Db;
  embedded: PGlite;
}

/** The target: Kysely and the client it runs on, in one transaction (COPY from the client). */
export interface TargetSide {
  db: Db;
  client: pg.PoolClient;
}

export interface Copied {
  rows: number;
  /** SHA-256 of the rows as the source wrote them (COPY's text format, in key order). */
  sha256: string;
}

/** The rows of `select … order by key`, in COPY's text format: the same bytes on both sides. */
export function orderedRows(shape: TableShape, where = 'true'): string {
  const cols = shape.columns.map(ident).join(', ');
  return `select ${cols} from ${ident(shape.name)} where ${where} order by ${shape.key.map(ident).join(', ')}`;
}

/**
 * Copies a table in key order, `chunk` rows per statement: the source writes them with COPY to a
 * blob (PGlite's /dev/blob), the target reads the same bytes with COPY FROM STDIN, so no row is
 * ever parsed in JavaScript; the next chunk is read while the target writes this one. A chunk's
 * last key is found first (an index-only scan), so each COPY has both bounds.
 */
export async function copyTable(
  source: SourceSide,
  target: TargetSide,
  shape: TableShape,
  chunk: number,
  onRows: (rows: number) => void,
): Promise<Copied> {
  const t = ident(shape.name);
  const key = shape.key.map(ident).join(', ');
  const keyOf = (json: string) =>
    `(select ${key} from json_populate_record(null::${t}, '${json.replaceAll("'", "''")}'::json))`;
  const hash: Hash = createHash('sha256');
  let rows = 0;
  let writing: Promise<number> = Promise.resolve(0);
  let last: string | null = null;
  for (;;) {
    const after: string = last === null ? 'true' : `(${key}) > ${keyOf(last)}`;
    let upto: string | null = null;
    if (Number.isFinite(chunk)) {
      const found: { last: string }[] = (
        await sql<{ last: string }>`
        select json_build_object(${sql.raw(shape.key.map((k) => `'${k}', ${ident(k)}`).join(', '))})::text as last
        from (select ${sql.raw(key)} from ${sql.raw(t)} where ${sql.raw(after)} order by ${sql.raw(key)} limit ${chunk}) s
        order by ${sql.raw(shape.key.map((k) => `${ident(k)} desc`).join(', '))} limit 1
      `.execute(source.db)
      ).rows;
      upto = found[0]?.last ?? null;
      if (upto === null) break;
    }
    const where = upto === null ? after : `${after} and (${key}) <= ${keyOf(upto)}`;
    const result = await source.embedded.query(`copy (${orderedRows(shape, where)}) to '/dev/blob'`);
    const bytes = result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : new Uint8Array();
    hash.update(bytes);
    const written = await writing;
    rows += written;
    onRows(rows);
    writing = copyIn(target.client, `copy ${t} (${shape.columns.map(ident).join(', ')}) from stdin`, bytes);
    if (upto === null) break;
    last = upto;
  }
  rows += await writing;
  return { rows, sha256: hash.digest('hex') };
}

/** Every row of the table read back from the target, as the source wrote it: its rows and SHA-256. */
export async function readBack(target: TargetSide, shape: TableShape): Promise<Copied> {
  const hash = createHash('sha256');
  const rows = await copyOut(target.client, `copy (${orderedRows(shape)}) to stdout`, (c) => hash.update(c));
  return { rows, sha256: hash.digest('hex') };
}

/** Sets each sequence of the table in the target where it stands in the source (past every id given out). */
export async function copySequences(source: Db, target: Db, shape: TableShape): Promise<void> {
  for (const sequence of shape.sequences) {
    const { rows } = await sql<{ last: string; called: boolean }>`
      select last_value::text as last, is_called as called from ${sql.raw(sequence)}
    `.execute(source);
    const state = rows[0];
    if (!state) continue;
    await sql`select setval(${sequence}, ${state.last}::bigint, ${state.called})`.execute(target);
  }
}
