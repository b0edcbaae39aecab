import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';

/**
 * Which database this connection reached, however its URL spelt the host: its name and its
 * cluster's system identifier (`pg_control_system()`), the same for every process on one database.
 * Compared across processes (docs/operating.md, "Settings that must match across processes").
 * Undefined when the role may not read the identifier.
 */
export async function databaseIdentity(db: Kysely<Database>): Promise<string | undefined> {
  try {
    const { rows } = await sql<{ name: string; cluster: string }>`
      select current_database() as name, system_identifier::text as cluster from pg_control_system()
    `.execute(db);
    const row = rows[0];
    return row ? `${row.name} on cluster ${row.cluster}` : undefined;
  } catch {
    return undefined;
  }
}
