import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';

/**
 * Takes transaction-scoped advisory locks on the given keys, in one round trip. Keys are
 * locked in sorted order so that two transactions locking overlapping sets cannot deadlock;
 * the locks are released at commit or rollback. Must run inside a transaction.
 */
export async function lockKeys(trx: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const sorted = [...new Set(keys)].sort();
  await sql`
    select pg_advisory_xact_lock(hashtextextended(k, 0))
    from unnest(${sorted}::text[]) with ordinality as u(k, i)
    order by i
  `.execute(trx);
}
