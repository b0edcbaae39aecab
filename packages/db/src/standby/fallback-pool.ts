import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { isDatabaseUnavailable } from '../errors.ts';

/**
 * A standby's pool that falls back to the primary's (docs/operating.md#when-a-standby-lags-or-stops):
 * when a connection cannot be had, or a statement outside a transaction fails because the
 * standby went away (or cancelled it for a conflict with recovery), the statement runs again
 * on the primary and `onFailure` is told. The primary is never behind a standby, so a read
 * answered there is at least as new. A statement inside a transaction is not repeated: the
 * transaction fails, and its caller tries again.
 */
export function fallbackPool(
  standby: PostgresPool,
  primary: PostgresPool,
  onFailure: (err: unknown) => void,
): PostgresPool {
  const retryable = (err: unknown) =>
    isDatabaseUnavailable(err) || (err as { code?: unknown } | undefined)?.code === '40001';
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: PostgresPoolClient;
      try {
        client = await standby.connect();
      } catch (err) {
        if (!retryable(err)) throw err;
        onFailure(err);
        return primary.connect();
      }
      let inTransaction = false;
      let moved: PostgresPoolClient | undefined;
      const query = (async (sql: unknown, parameters?: readonly unknown[]) => {
        // biome-ignore lint/suspicious/noExplicitAny: passes Kysely's call through untouched
        const run = (c: PostgresPoolClient) => (c.query as any)(sql, parameters);
        if (moved) return run(moved);
        if (typeof sql === 'string') {
          if (/^\s*(begin|start transaction)/i.test(sql)) inTransaction = true;
          else if (/^\s*(commit|rollback)/i.test(sql)) inTransaction = false;
        }
        try {
          return await run(client);
        } catch (err) {
          if (inTransaction || !retryable(err)) throw err;
          onFailure(err);
          moved = await primary.connect();
          return run(moved);
        }
      }) as PostgresPoolClient['query'];
      return {
        query,
        release() {
          client.release();
          moved?.release();
        },
      };
    },
    // the pools belong to their handles, which close them
    end: async () => {},
  };
}
