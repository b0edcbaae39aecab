import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * A pg.Pool for Kysely that runs every parameterised statement as a named prepared statement.
 * PostgreSQL then parses and plans each statement text once per connection instead of on
 * every call, which is most of the cost of the short queries this service runs. The repository
 * SQL is fixed text (lists travel as array parameters), so the statements are few and bounded.
 * Statements without parameters (BEGIN, COMMIT, migrations) go through the simple protocol.
 *
 * A migration that changes the columns of a table read with `select *` invalidates the
 * statements prepared on open connections: restart the servers after such a migration.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (name === undefined) {
      name = `q_${createHash('sha1').update(sql).digest('base64url').slice(0, 22)}`;
      names.set(sql, name);
    }
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = {
          // biome-ignore lint/suspicious/noExplicitAny: the cursor overload passes through untouched
          query: ((sql: any, parameters?: readonly unknown[]) =>
            typeof sql === 'string' && parameters && parameters.length > 0
              ? client.query({ name: nameOf(sql), text: sql, values: [...parameters] })
              : client.query(sql, parameters as unknown[])) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
