import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { sharedSettings } from '../src/shared-settings.ts';
import {
  type Client,
  freshPostgresDatabase,
  POSTGRES_URL,
  type ServerProcess,
  spawnServer,
} from './helpers.ts';

/**
 * Each process logs the settings that must match across processes at start, and
 * GET /healthz?verbose=1 answers them with one fingerprint, so that an operator can compare the
 * processes behind a balancer (docs/operating.md, "Settings that must match across processes").
 */
describe('the settings that must match (in-process)', () => {
  const key = 'a-key-of-this-test';
  const secret = 'the-secret-this-service-keeps';
  const of = (env: Record<string, string>, k = key, database = 'test on cluster 1') =>
    sharedSettings(readConfig(env), k, database, secret);

  it('differ in fingerprint when a shared setting differs, and only then', () => {
    const base = of({});
    expect(of({}).fingerprint).toBe(base.fingerprint);
    for (const env of <Record<string, string>[]>[
      { WEBHOOK_ALLOW_PRIVATE: '1' },
      { REVISIONS_KEEP: '5' },
      { CHANGES_RETENTION_DAYS: '7' },
      { TASK_MAX_ATTEMPTS: '2' },
      { WEBHOOK_MAX_FAILURES: '3' },
      { BODY_LIMIT_BYTES: '1000' },
      { RATE_LIMIT_PER_KEY: '10' },
    ]) {
      expect(of(env).fingerprint, JSON.stringify(env)).not.toBe(base.fingerprint);
    }
    expect(of({}, 'another key').fingerprint).not.toBe(base.fingerprint);
    expect(of({}, key, 'other on cluster 1').fingerprint).not.toBe(base.fingerprint);
    // What each process may set for itself leaves the fingerprint as it is.
    const own = of({
      PORT: '4000',
      HOST: '0.0.0.0',
      DB_POOL_SIZE: '3',
      READ_CACHE_MB: '10',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'loopback',
      WEBHOOK_POLL_MS: '50',
    });
    expect(own).toEqual(base);
  });

  it('name the key by a fingerprint only, and a database URL without its password', () => {
    const shared = sharedSettings(
      readConfig({ DATABASE_URL: 'postgres://app:s3cret-pw@db.internal:5432/directory' }),
      key,
      undefined,
      secret,
    );
    const text = JSON.stringify(shared);
    expect(text).not.toContain(key);
    expect(text).not.toContain('s3cret-pw');
    expect(shared.settings.DATABASE_URL).toBe('postgres://app:***@db.internal:5432/directory');
    expect(shared.settings.WEBHOOK_API_KEY).toMatch(/^fingerprint [0-9a-f]{16}$/);
    expect(shared.settings.WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(shared.settings.REVISIONS_KEEP).toBe(100);
  });

  it("fingerprint the key with the service's secret: no key can be tested against it offline", () => {
    const shown = (k: string, s: string) =>
      sharedSettings(readConfig({}), k, undefined, s).settings.WEBHOOK_API_KEY;
    // equal keys of one deployment (one secret) compare equal; another key differs
    expect(shown(key, secret)).toBe(shown(key, secret));
    expect(shown('another key', secret)).not.toBe(shown(key, secret));
    // whoever lacks the secret cannot compute it from a guess of the key
    expect(shown(key, 'another secret')).not.toBe(shown(key, secret));
  });
});

/** The `settings that must match across processes` line of a process's log. */
function loggedSettings(s: ServerProcess) {
  const line = s
    .output()
    .split('\n')
    .find((l) => l.includes('"msg":"settings that must match across processes"'));
  expect(line).toBeDefined();
  const { settings, fingerprint } = JSON.parse(line as string);
  return { settings, fingerprint };
}

async function verbose(s: Client) {
  for (;;) {
    const res = await s.call('GET', '/healthz?verbose=1', { key: false });
    if (res.status === 200) return res.json;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a server process', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  });

  it('logs the shared settings at start and answers them at /healthz?verbose=1, never the key', async () => {
    const s = await spawnServer({
      DATABASE_URL: 'memory:',
      WEBHOOK_API_KEY: key,
      WEBHOOK_ALLOW_PRIVATE: '1',
    });
    servers.push(s);
    const logged = loggedSettings(s);
    expect(logged.settings).toMatchObject({ WEBHOOK_ALLOW_PRIVATE: true, REVISIONS_KEEP: 100 });
    // and where it reads, with its read model's position (docs/operating.md#what-an-operator-sees)
    expect(await verbose(s)).toEqual({
      success: true,
      status: 'ok',
      // which build answers (docs/operating.md#metrics-get-metrics)
      version: '0.1.0',
      commit: expect.stringMatching(/^([0-9a-f]{7,12}|unknown)$/),
      ...logged,
      reads: { from: 'primary', standbys: [] },
      position: expect.any(Number),
    });
    // Without verbose, /healthz answers as the contract's clients expect.
    expect((await s.call('GET', '/healthz', { key: false })).json).toEqual({ success: true, status: 'ok' });
    expect(s.output()).not.toContain(key);
  }, 90_000);
});

describe.skipIf(!POSTGRES_URL)('processes on one PostgreSQL database', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  const servers: ServerProcess[] = [];
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await database?.drop();
  }, 60_000);

  it('compare by fingerprint: the same database however its URL is spelt, and a differing setting', async () => {
    database = await freshPostgresDatabase();
    const other = database.url.replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(database.url);
    const [a, b, c] = await Promise.all([
      spawnServer({ DATABASE_URL: database.url, WEBHOOK_API_KEY: key }),
      spawnServer({ DATABASE_URL: other, WEBHOOK_API_KEY: key }),
      spawnServer({ DATABASE_URL: database.url, WEBHOOK_API_KEY: key, WEBHOOK_ALLOW_PRIVATE: '1' }),
    ]);
    servers.push(a, b, c);
    const [va, vb, vc] = await Promise.all([verbose(a), verbose(b), verbose(c)]);
    expect(va.settings.DATABASE_URL).toMatch(/^directory_test_[0-9a-f]+ on cluster \d+$/);
    // the read models' positions may differ a moment; everything else is equal
    expect({ ...vb, position: 0 }).toEqual({ ...va, position: 0 });
    expect(vc.fingerprint).not.toBe(va.fingerprint);
    expect({ ...vc.settings, WEBHOOK_ALLOW_PRIVATE: false }).toEqual(va.settings);
  }, 120_000);
});
