import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  type ServerProcess,
  spawnServer,
} from './helpers.ts';

/**
 * Revisions written by two server processes at once on one PostgreSQL database
 * (docs/curation.md#history-revert-locks-and-restore): numbered 1..n, each write once.
 */
describe.skipIf(!POSTGRES_URL)('history across two server processes on PostgreSQL', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // 60 writes of one project wait on its row in turn, each holding a pooled connection: on a
    // loaded machine the last ones would wait for a connection longer than the default 5 s and be
    // answered 503 (DB_CONNECT_TIMEOUT_MS, docs/operating.md), which is not what this test is about
    const env = { DATABASE_URL: database.url, WEBHOOK_API_KEY: key, DB_CONNECT_TIMEOUT_MS: '30000' };
    a = await spawnServer(env); // migrates first
    b = await spawnServer(env);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.drop();
  });

  it('concurrent upserts of one project in two processes: revisions numbered 1..n, each write once', async () => {
    const p = project();
    const first = await a.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(first.status, first.text).toBe(200);
    const slug = first.json.results[0].slug as string;
    const n = 60;
    const writes = Array.from({ length: n }, (_, i) => {
      const via: Client = i % 2 ? a : b;
      return via.call('POST', '/api/webhook/projects', {
        body: { projects: [{ ...p, description: `Concurrent write number ${i}.` }] },
        headers: { 'x-directory-actor': `writer-${i}` },
      });
    });
    for (const r of await Promise.all(writes)) expect(r.status, r.text).toBe(200);
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const { rows } = await pool.query<{ revision: number; actor: string | null }>(
        'select revision, actor from project_revisions r join projects p on p.id = r.project_id where p.slug = $1 order by revision',
        [slug],
      );
      expect(rows.map((r) => r.revision)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      // each write changed the description from the one before it, except when two wrote the same
      // description in a row (never: every write's is its own), so every write made one revision
      expect(rows).toHaveLength(n + 1);
      expect(new Set(rows.slice(1).map((r) => r.actor)).size).toBe(n);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
