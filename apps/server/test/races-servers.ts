import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { freshPostgresDatabase, type Reply, type ServerProcess, spawnServer, uniqueUrl } from './helpers.ts';

/**
 * The two server processes of races.test.ts (docs/operating.md#several-processes-crashes-and-outages)
 * on one fresh PostgreSQL database, started at once so that the migrations race too, and what its
 * races (and those of races-url-keys.ts, on the same processes) are made of.
 */

/** How many requests a race fires at once. */
export const N = 12;

/** The processes and the database (once beforeAll has run), and the races' helpers. */
export interface RacingServers {
  readonly fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  readonly servers: ServerProcess[];
  race(request: (s: ServerProcess, i: number) => Promise<Reply>): Promise<Reply[]>;
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  sum(replies: Reply[], field: string): number;
  statuses(replies: Reply[]): number[];
  upsert(s: ServerProcess, projects: unknown[]): Promise<Reply>;
  /** A new task, created on the first process; its id. */
  createTask(): Promise<string>;
}

/** The processes of a describe block: started in its beforeAll, stopped (and the database dropped) in its afterAll. */
export function useRacingServers(): RacingServers {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  let servers: ServerProcess[] = [];
  let sql: pg.Client | undefined;

  beforeAll(async () => {
    fresh = await freshPostgresDatabase();
    const env = {
      DATABASE_URL: fresh.url,
      WEBHOOK_API_KEY: `race-key-${randomBytes(8).toString('hex')}`,
      DB_POOL_SIZE: '10',
    };
    // Both start at once on an empty database: the migrations race too.
    const started = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
    await fresh?.drop();
  });

  function race(request: (s: ServerProcess, i: number) => Promise<Reply>): Promise<Reply[]> {
    return Promise.all(Array.from({ length: N }, (_, i) => request(servers[i % 2]!, i)));
  }
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await sql!.query<R>(text, values)).rows;
  const sum = (replies: Reply[], field: string) =>
    replies.reduce((n, r) => n + (r.json?.[field] as number), 0);
  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort((a, b) => a - b);
  const upsert = (s: ServerProcess, projects: unknown[]) =>
    s.call('POST', '/api/webhook/projects', { body: { projects } });

  async function createTask(): Promise<string> {
    const sourceUrl = uniqueUrl('task');
    const r = await servers[0]!.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl }] } });
    expect(r.json).toMatchObject({ created: 1 });
    const rows = await query<{ id: string }>('select id from discovery_tasks where source_url = $1', [
      sourceUrl,
    ]);
    return rows[0]!.id;
  }

  return {
    get fresh() {
      return fresh;
    },
    get servers() {
      return servers;
    },
    race,
    query,
    sum,
    statuses,
    upsert,
    createTask,
  };
}
