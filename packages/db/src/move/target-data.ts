import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { baseTables } from './compare.ts';
import { ident } from './copy-table.ts';
import { KEPT_TABLES, MOVED_TABLES } from './tables.ts';

/**
 * What a would-be target already holds: each table with rows that are data, and how many. Rows
 * a fresh migration writes (MovedTable.fresh) and the tables kept out of a move are not data; a
 * table the mover does not know is, when it has any row.
 */
export async function dataIn(db: Kysely<Database>): Promise<{ table: string; rows: number }[]> {
  const found: { table: string; rows: number }[] = [];
  for (const table of await baseTables(db)) {
    if (table in KEPT_TABLES) continue;
    const fresh = MOVED_TABLES.find((t) => t.name === table)?.fresh;
    const where = fresh ? `not (${fresh})` : 'true';
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.raw(ident(table))} where ${sql.raw(where)}
    `.execute(db);
    const n = rows[0]?.n ?? 0;
    if (n > 0) found.push({ table, rows: n });
  }
  return found;
}

export function describeData(found: { table: string; rows: number }[]): string {
  return found.map((f) => `${f.table} (${f.rows} ${f.rows === 1 ? 'row' : 'rows'})`).join(', ');
}
