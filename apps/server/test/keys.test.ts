import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';
import { keyCreation } from './keys-create.ts';
import { keyCreator } from './keys-helpers.ts';
import { keyLifecycle } from './keys-lifecycle.ts';

/**
 * Named keys, their scopes and their limits (docs/keys-and-limits.md): created and checked
 * (keys-create.ts), revoked, rotated and expired (keys-lifecycle.ts), both registered here on this
 * file's server; a key's own rate limit (docs/keys-and-limits.md#rate-limiting), a tRPC batch,
 * /metrics and its scope; METRICS_PUBLIC; and the embedded database's files its owner's only
 * (docs/keys-and-limits.md#files).
 */

describe.each(targets)('keys, scopes and limits on $name', (target) => {
  const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 0, perKey: 0 } });
  const createKey = keyCreator(s);

  keyCreation(s, createKey);
  keyLifecycle(s, createKey);

  it('limits a key to its own rateLimit: RateLimit headers, then 429 with Retry-After', async () => {
    const k = await createKey({
      name: 'limited',
      scopes: ['tasks:read'],
      rateLimit: { requests: 3, windowSeconds: 60 },
    });
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await s.call('GET', '/api/discovery/tasks', { key: k.key }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies[0]?.headers.get('ratelimit-policy')).toBe('"key";q=3;w=60');
    expect(replies[0]?.headers.get('ratelimit')).toMatch(/^"key";r=2;t=\d+$/);
    const refused = replies[3]!;
    expect(refused.json.error).toBe('Too Many Requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // other keys have their own budget
    expect((await s.call('GET', '/api/discovery/tasks')).status).toBe(200);
  });

  it('requests arriving together share one lease: a limit far off refuses none of them', async () => {
    // A lease is 1/20 of the limit (rate-limit.ts): 200 requests at once under a limit of
    // 1,000 take one lease of 50 and then the next ones, never a lease each (which spent the
    // whole window's count on the first requests and refused the rest).
    const k = await createKey({
      name: 'together',
      scopes: ['tasks:read'],
      rateLimit: { requests: 1000, windowSeconds: 60 },
    });
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => s.call('GET', '/api/discovery/tasks', { key: k.key })),
    );
    expect(replies.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    const left = await s.call('GET', '/api/discovery/tasks', { key: k.key });
    expect(left.headers.get('ratelimit')).toMatch(/^"key";r=799;/);
  });

  it('a tRPC batch holds at most 10 calls, and each call counts (review finding)', async () => {
    const k = await createKey({
      name: 'batcher',
      scopes: [],
      rateLimit: { requests: 12, windowSeconds: 60 },
    });
    const batch = (n: number) =>
      s.call(
        'GET',
        `/trpc/${Array.from({ length: n }, () => 'projects.get').join(',')}?batch=1&input=${encodeURIComponent(
          JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { slug: 'none' }]))),
        )}`,
        { key: k.key },
      );
    const eleven = await batch(11);
    expect(eleven.status).toBe(400);
    // refused in tRPC's batch shape: one error per call, each with the envelope in its data
    expect(eleven.json).toHaveLength(11);
    expect(eleven.json[0].error.data.details[0]).toMatch(/^batch: At most 10 calls/);
    const ten = await batch(10);
    expect(ten.headers.get('ratelimit')).toMatch(/^"key";r=2;/);
    expect((await batch(3)).status).toBe(429);
    expect((await batch(2)).status).not.toBe(429);
  });

  it('/metrics needs metrics:read', async () => {
    const k = await createKey({ name: 'no metrics', scopes: ['tasks:read'] });
    const m = await createKey({ name: 'prometheus', scopes: ['metrics:read'] });
    expect((await s.call('GET', '/metrics', { key: false })).status).toBe(401);
    const refused = await s.call('GET', '/metrics', { key: k.key });
    expect([refused.status, refused.json.details[0]]).toEqual([403, 'scope: this key lacks "metrics:read"']);
    expect((await s.call('GET', '/metrics', { key: m.key })).status).toBe(200);
  });
});

describe('METRICS_PUBLIC and anonymous limits', () => {
  const s = useServer(
    { postgres: false },
    { metricsPublic: true, rateLimit: { windowMs: 60_000, perAddress: 4, perKey: 0 } },
  );

  it('/metrics without a key when public, and counted like any request', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await s.call('GET', '/metrics', { key: false })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('the embedded database files', () => {
  it("are its owner's only (0700 directories, 0600 files), whatever the umask", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-perm-'));
    const umask = process.umask(0);
    try {
      const handle = await connect(`pglite:${join(dir, 'data')}`);
      // a write, so that the WAL (which holds what is written, webhook secrets too) has data
      await handle.pool.query("create table t (secret text); insert into t values ('whsec_x')");
      await handle.close();
      const loose: string[] = [];
      const walk = (d: string) => {
        for (const entry of readdirSync(d, { withFileTypes: true })) {
          const path = join(d, entry.name);
          const mode = statSync(path).mode & 0o777;
          if (entry.isDirectory()) {
            if (mode !== 0o700) loose.push(`${path} ${mode.toString(8)}`);
            walk(path);
          } else if (entry.isFile() && mode !== 0o600) loose.push(`${path} ${mode.toString(8)}`);
        }
      };
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
      walk(join(dir, 'data'));
      expect(loose).toEqual([]);
    } finally {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
