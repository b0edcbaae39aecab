import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

/** What a snapshot of the read model is checked against before it is loaded (core/read-model/snapshot-file.ts). */
export interface DatabaseInstance {
  /** The database's own id (table database_instance), the same on its standbys. */
  id: string;
  /** pg_control_system()'s system_identifier, when the role may read it ('' otherwise). */
  cluster: string;
  /** The current snapshot's xmax: no position of this database is past it. */
  xmax: bigint;
}

export async function readDatabaseInstance(db: Kysely<Database>): Promise<DatabaseInstance> {
  const { rows } = await sql<{ id: string | null; xmax: string }>`
    select (select id from database_instance order by created_at limit 1) as id,
      pg_snapshot_xmax(pg_current_snapshot())::text as xmax
  `.execute(db);
  let cluster = '';
  try {
    const control = await sql<{ cluster: string }>`
      select system_identifier::text as cluster from pg_control_system()
    `.execute(db);
    cluster = control.rows[0]?.cluster ?? '';
  } catch {
    // a role without the right to read it: the database's own id still tells databases apart
  }
  return { id: rows[0]?.id ?? '', cluster, xmax: BigInt(rows[0]?.xmax ?? '0') };
}
