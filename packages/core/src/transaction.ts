import { AsyncLocalStorage } from 'node:async_hooks';
import { currentTransactionId, type Database, type Kysely, type Transaction } from '@directory/db';

/**
 * The transactions a request committed (their xids), recorded by inTransaction while a
 * request's store is active: the read model applies their changes before the request is
 * answered, and the response carries the position just after them (trpc.ts ownWrites).
 */
export const requestWrites = new AsyncLocalStorage<{ xids: string[] }>();

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
      const writes = requestWrites.getStore();
      return await db.transaction().execute(async (trx) => {
        const result = await fn(trx);
        if (writes) {
          const xid = await currentTransactionId(trx);
          if (xid !== null) writes.xids.push(xid);
        }
        return result;
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
