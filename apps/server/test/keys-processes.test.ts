import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, freshPostgresDatabase, POSTGRES_URL, type ServerProcess, spawnServer } from './helpers.ts';

/**
 * Named keys and limits (docs/keys-and-limits.md#named-keys-and-scopes) across real processes on one
 * PostgreSQL, started without WEBHOOK_API_KEY: they agree on one admin key; a key revoked through one is
 * refused by the other within 1 s; a limit of 6 requests a minute is 6 across both processes, not 12.
 */
describe.skipIf(!POSTGRES_URL)('keys across processes on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let admin: string;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const env = { DATABASE_URL: database.url, WEBHOOK_API_KEY: '', RATE_LIMIT_KEY_PER_MINUTE: '6' };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop('SIGKILL')));
    await database?.drop();
  }, 60_000);

  const printed = (s: ServerProcess) => s.output().match(/shown only now: (dir_\w+)/)?.[1];

  it('two processes started without WEBHOOK_API_KEY agree on one key', async () => {
    const keys = [printed(a), printed(b)].filter((k) => k !== undefined);
    // exactly one of them made the key; the other uses the database's
    expect(keys).toHaveLength(1);
    admin = keys[0] as string;
    expect(a.output() + b.output()).toContain('using the named keys in the database');
    for (const s of [a, b]) {
      const self = await client(s.baseUrl, admin).call('GET', '/api/keys/self');
      expect(self.status, self.text).toBe(200);
      expect(self.json.data).toMatchObject({ name: 'admin' });
      // every scope (docs/keys-and-limits.md#named-keys-and-scopes), `export` among them
      expect(self.json.data.scopes).toHaveLength(9);
    }
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query('select count(*)::int as n from api_keys');
    await db.end();
    expect(rows[0].n).toBe(1);
  });

  it('a key revoked through one process is refused by the other within 1 s', async () => {
    const made = await client(a.baseUrl, admin).call('POST', '/api/keys', {
      body: { name: 'to revoke', scopes: ['tasks:read'], rateLimit: { requests: 1000, windowSeconds: 60 } },
    });
    expect(made.status, made.text).toBe(201);
    const other = client(b.baseUrl, made.json.data.key);
    expect((await other.call('GET', '/api/discovery/tasks')).status).toBe(200);
    const revoked = await client(a.baseUrl, admin).call('DELETE', `/api/keys/${made.json.data.id}`);
    expect(revoked.status).toBe(200);
    const at = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - at < 3_000)
      status = (await other.call('GET', '/api/discovery/tasks')).status;
    expect(status).toBe(401);
    expect(Date.now() - at).toBeLessThan(1_000);
  });

  it('a limit of 6 a minute allows 6 requests spread over both processes, not 12', async () => {
    const made = await client(a.baseUrl, admin).call('POST', '/api/keys', {
      body: { name: 'six a minute', scopes: ['tasks:read'] },
    });
    expect(made.status, made.text).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const s = i % 2 === 0 ? a : b;
      statuses.push((await client(s.baseUrl, made.json.data.key).call('GET', '/api/discovery/tasks')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
  });
});
