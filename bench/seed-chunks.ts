import type { DatabaseHandle } from '../packages/db/src/index.ts';

/* Rows written in chunks on two connections, for the seeding of seed.ts and seed-tasks.ts. */

export type Pool = DatabaseHandle['pool'];

const CHUNK = 2000;

// pg.PoolClient, named through the pool's callback form (bench/ does not depend on pg itself).
type Client = NonNullable<Parameters<Parameters<Pool['connect']>[0]>[1]>;

/**
 * Runs `work` over 0..count-1 in chunks on two connections, so that one chunk is built in JS
 * while the other is written. The rows are consistent by construction, so the connections
 * skip foreign-key triggers (session_replication_role = replica) when the role may do so:
 * they are most of the cost of a bulk load.
 */
export async function inChunks(
  pool: Pool,
  count: number,
  work: (client: Client, from: number, to: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      await client.query('set session_replication_role = replica').catch(() => {});
      while (next < count) {
        const from = next;
        next = Math.min(count, next + CHUNK);
        await work(client, from, next);
      }
      await client.query('reset session_replication_role').catch(() => {});
    } finally {
      client.release();
    }
  };
  await Promise.all([worker(), worker()]);
}
