import type { Database, Kysely, Transaction } from '@directory/db';

// serialization_failure, deadlock_detected, unique_violation: outcomes of a race that a
// fresh attempt resolves (it sees the other transaction's committed rows).
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const ATTEMPTS = 4;

/** Runs `fn` in a transaction, retrying it whole when it lost a race to another writer. */
export async function inTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
