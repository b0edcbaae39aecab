import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';

/**
 * A request whose body never finishes: resolves with the status of the answer the server sends
 * before it (or 'no answer' after `waitMs`), then closes the connection.
 */
function answerBeforeBody(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  waitMs = 3_000,
): Promise<number | 'no answer'> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, waitMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
    req.write('{"projects": [');
  });
}

const BASE58_KEY = /^dir_[1-9A-HJ-NP-Za-km-z]{43,44}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(targets)('keys, scopes and limits on $name', (target) => {
  const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 0, perKey: 0 } });

  const createKey = async (body: Record<string, unknown>) => {
    const r = await s.call('POST', '/api/keys', { body });
    expect(r.status, r.text).toBe(201);
    return r.json.data as { id: string; key: string; name: string; start: string; scopes: string[] };
  };

  it('creates a named key shown once: dir_ + base58, start, only its SHA-256 stored', async () => {
    const r = await s.call('POST', '/api/keys', {
      body: {
        name: '爬虫 crawler',
        scopes: ['tasks:write', 'projects:write'],
        rateLimit: { requests: 50, windowSeconds: 60 },
      },
    });
    expect(r.status).toBe(201);
    const { data } = r.json;
    expect(data).toMatchObject({
      name: '爬虫 crawler',
      scopes: ['tasks:write', 'projects:write'],
      expiresAt: null,
      rateLimit: { requests: 50, windowSeconds: 60 },
    });
    expect(data.key).toMatch(BASE58_KEY);
    expect(data.start).toBe(data.key.slice(0, 12));
    // what the database holds: the hash, never the key
    const { rows } = await s.db.pool.query('select * from api_keys where id = $1', [data.id]);
    expect(rows[0].hash).toBe(createHash('sha256').update(data.key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(data.key);
    // and no later answer shows it
    const list = await s.call('GET', '/api/keys');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(data.key);
    expect(list.json.data[0]).toMatchObject({
      id: data.id,
      start: data.start,
      revokedAt: null,
      lastUsedAt: null,
    });
    const self = await s.call('GET', '/api/keys/self', { key: data.key });
    expect(self.text).not.toContain(data.key);
    expect(self.json.data).toMatchObject({ id: data.id, name: '爬虫 crawler', scopes: data.scopes });
  });

  it('refuses bad input to create with 400 and stores nothing', async () => {
    const before = (await s.db.pool.query('select count(*)::int as n from api_keys')).rows[0].n;
    for (const body of [
      { name: '', scopes: [] },
      { name: 'x'.repeat(101), scopes: [] },
      { name: 'x', scopes: ['root'] },
      { name: 'x', scopes: [], expiresAt: '2001-01-01T00:00:00.000Z' },
      { name: 'x', scopes: [], rateLimit: { requests: 0, windowSeconds: 60 } },
    ])
      expect((await s.call('POST', '/api/keys', { body })).status, JSON.stringify(body)).toBe(400);
    expect((await s.db.pool.query('select count(*)::int as n from api_keys')).rows[0].n).toBe(before);
  });

  it('403 names the missing scope; tasks:write implies tasks:read; a key sees its own scopes', async () => {
    const reader = await createKey({ name: 'reader', scopes: ['tasks:read'] });
    const writer = await createKey({ name: 'writer', scopes: ['tasks:write'] });
    expect((await s.call('GET', '/api/discovery/tasks', { key: reader.key })).status).toBe(200);
    const refused = await s.call('POST', '/api/discovery/tasks', {
      key: reader.key,
      body: { tasks: [{ sourceUrl: 'https://example.org/a' }] },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      success: false,
      error: 'Forbidden',
      details: ['scope: this key lacks "tasks:write"'],
    });
    expect((await s.call('GET', '/api/discovery/tasks', { key: writer.key })).status).toBe(200);
    expect((await s.call('GET', '/api/discovery/stats', { key: writer.key })).status).toBe(200);
    for (const [path, scope] of [
      ['/api/changes', 'changes:read'],
      ['/api/webhooks', 'webhooks:manage'],
      ['/api/keys', 'keys:admin'],
      ['/api/projects/deleted', 'curate'],
    ] as const) {
      const r = await s.call('GET', path, { key: writer.key });
      expect([r.status, r.json.details[0]]).toEqual([403, `scope: this key lacks "${scope}"`]);
    }
    const boot = await s.call('GET', '/api/keys/self');
    expect(boot.json.data).toMatchObject({ id: null, name: 'bootstrap' });
    expect(boot.json.data.scopes).toHaveLength(9);
    expect(boot.json.data.scopes).toContain('export');
  });

  it('accepts the key as Authorization: Bearer; another scheme or two different keys is 401', async () => {
    const body = { projects: [project()] };
    const bearer = { authorization: `Bearer ${s.key}` };
    expect(
      (await s.call('POST', '/api/webhook/projects', { body, key: false, headers: bearer })).status,
    ).toBe(200);
    const named = await createKey({ name: 'bearer', scopes: ['tasks:read'] });
    expect(
      (
        await s.call('GET', '/api/discovery/tasks', {
          key: false,
          headers: { authorization: `Bearer ${named.key}` },
        })
      ).status,
    ).toBe(200);
    const wrong = { authorization: 'Bearer nope' };
    expect((await s.call('POST', '/api/webhook/projects', { body, key: false, headers: wrong })).status).toBe(
      401,
    );
    const basic = { authorization: `Basic ${s.key}` };
    expect((await s.call('GET', '/api/discovery/tasks', { key: false, headers: basic })).status).toBe(401);
    // x-api-key and Authorization name different keys
    expect(
      (await s.call('GET', '/api/discovery/tasks', { headers: { authorization: `Bearer ${named.key}` } }))
        .status,
    ).toBe(401);
  });

  it('refuses a wrong or unscoped header key before reading the body (the body never finishes)', async () => {
    // before: the adapter read the whole body first, so this waited for the request timeout
    expect(await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { 'x-api-key': 'wrong' })).toBe(401);
    expect(
      await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { authorization: 'Bearer wrong' }),
    ).toBe(401);
    const reader = await createKey({ name: 'no writes', scopes: ['tasks:read'] });
    expect(await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { 'x-api-key': reader.key })).toBe(403);
    // tRPC too
    expect(await answerBeforeBody(s.baseUrl, '/trpc/projects.upsert', { 'x-api-key': 'wrong' })).toBe(401);
    expect(await answerBeforeBody(s.baseUrl, '/trpc/projects.upsert', { 'x-api-key': reader.key })).toBe(403);
    // a right key waits for its body, as it must
    expect(await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { 'x-api-key': s.key }, 500)).toBe(
      'no answer',
    );
  });

  it('checks in the order 413 → 401 → 403 → 400 → 404', async () => {
    const reader = await createKey({ name: 'order', scopes: ['tasks:read'] });
    const big = `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    expect((await s.call('POST', '/api/discovery/tasks', { raw: big, key: 'wrong' })).status).toBe(413);
    expect((await s.call('POST', '/api/discovery/tasks', { raw: '{bad', key: 'wrong' })).status).toBe(401);
    expect((await s.call('POST', '/api/discovery/tasks', { raw: '{bad', key: reader.key })).status).toBe(403);
    expect((await s.call('PATCH', '/api/discovery/tasks/none', { body: { status: 'NOPE' } })).status).toBe(
      400,
    );
    expect(
      (await s.call('PATCH', '/api/discovery/tasks/none', { body: { status: 'COMPLETED' } })).status,
    ).toBe(404);
  });

  it('parses a body only to a nesting depth of 64 (deeper: 400; without a key: 401)', async () => {
    const nest = (depth: number) => `{"projects":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const ok = await s.call('POST', '/api/webhook/projects', { raw: nest(64) });
    expect(ok.json.details.join(' ')).not.toMatch(/deeper/);
    const deep = await s.call('POST', '/api/webhook/projects', { raw: nest(65) });
    expect(deep.status).toBe(400);
    expect(deep.json.details).toEqual(['body: Must not nest arrays and objects deeper than 64 levels']);
    expect((await s.call('POST', '/api/webhook/projects', { raw: nest(65), key: false })).status).toBe(401);
    // a valid key in the body is a key all the same: 400, as with the key in a header; a wrong one 401
    const inBody = (key: string) => `{"apiKey":${JSON.stringify(key)},"projects":[{"x":${nest(65)}}]}`;
    const deepWithKey = await s.call('POST', '/api/webhook/projects', { raw: inBody(s.key), key: false });
    expect(deepWithKey.status, deepWithKey.text).toBe(400);
    expect(deepWithKey.json.details).toEqual([
      'body: Must not nest arrays and objects deeper than 64 levels',
    ]);
    expect((await s.call('POST', '/api/webhook/projects', { raw: inBody('wrong'), key: false })).status).toBe(
      401,
    );
    // brackets inside strings do not count
    const quoted = await s.call('POST', '/api/webhook/projects', {
      raw: `{"x":"${'['.repeat(200)}","projects":[]}`,
    });
    expect(quoted.json.details.join(' ')).not.toMatch(/deeper/);
    const trpc = await s.call('POST', '/trpc/projects.upsert', { raw: nest(65) });
    expect(trpc.status).toBe(400);
  });

  it('deeply nested 4 MB bodies without a key do not hold the server (review finding)', async () => {
    const body = `{"projects":${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}}`;
    const sends = Array.from({ length: 4 }, () =>
      s.call('POST', '/api/webhook/projects', { raw: body, key: false }).then((r) => r.status),
    );
    const started = Date.now();
    expect((await s.call('GET', '/healthz', { key: false })).status).toBe(200);
    const healthMs = Date.now() - started;
    expect(await Promise.all(sends)).toEqual([401, 401, 401, 401]);
    // before: 15 s for eight such bodies; a generous bound for a shared machine
    expect(healthMs).toBeLessThan(5_000);
  });

  it('revokes: the key is refused at once; revoking again changes nothing; unknown id 404', async () => {
    const k = await createKey({ name: 'short-lived', scopes: ['tasks:read'] });
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    const revoked = await s.call('DELETE', `/api/keys/${k.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.revokedAt).not.toBeNull();
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
    expect((await s.call('GET', '/api/keys/self', { key: k.key })).status).toBe(401);
    const again = await s.call('DELETE', `/api/keys/${k.id}`);
    expect(again.json.data.revokedAt).toBe(revoked.json.data.revokedAt);
    expect((await s.call('DELETE', '/api/keys/no-such-key')).status).toBe(404);
  });

  it('rotates with a grace period: both work until it ends, then only the new key', async () => {
    const k = await createKey({
      name: 'rotating',
      scopes: ['tasks:read'],
      rateLimit: { requests: 99, windowSeconds: 60 },
    });
    const r = await s.call('POST', `/api/keys/${k.id}/rotate`, { body: { graceSeconds: 2 } });
    expect(r.status).toBe(200);
    const fresh = r.json.data;
    expect(fresh).toMatchObject({
      name: 'rotating',
      scopes: ['tasks:read'],
      rateLimit: { requests: 99, windowSeconds: 60 },
    });
    expect(fresh.key).toMatch(BASE58_KEY);
    expect(fresh.id).not.toBe(k.id);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(200);
    await sleep(2_700);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(200);
    // grace 0: at once; a revoked key cannot be rotated
    const now = await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: {} });
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(401);
    expect((await s.call('GET', '/api/discovery/tasks', { key: now.json.data.key })).status).toBe(200);
    expect((await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: {} })).status).toBe(409);
    expect(
      (await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: { graceSeconds: 604_801 } })).status,
    ).toBe(400);
  });

  it('an expired key is 401', async () => {
    const k = await createKey({
      name: 'expiring',
      scopes: ['tasks:read'],
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    await sleep(2_000);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
  });

  it('records lastUsedAt once a key is used', async () => {
    const k = await createKey({ name: 'used', scopes: ['tasks:read'] });
    await s.call('GET', '/api/discovery/tasks', { key: k.key });
    let used: string | null = null;
    for (let i = 0; i < 50 && used === null; i++) {
      await sleep(50);
      used = (await s.call('GET', '/api/keys')).json.data.find(
        (x: { id: string }) => x.id === k.id,
      ).lastUsedAt;
    }
    expect(used).not.toBeNull();
  });

  it('a revision records the key, and its name as the actor when no X-Directory-Actor is sent', async () => {
    const k = await createKey({ name: 'curator-ana', scopes: ['projects:write', 'curate'] });
    const p = project();
    expect(
      (await s.call('POST', '/api/webhook/projects', { key: k.key, body: { projects: [p] } })).status,
    ).toBe(200);
    const history = await s.call('GET', `/api/projects/${slugOf(p)}/revisions`, { key: false });
    expect(history.json.revisions[0]).toMatchObject({
      actor: 'curator-ana',
      key: { id: k.id, name: 'curator-ana' },
    });
    await s.call('POST', '/api/webhook/projects', {
      key: k.key,
      headers: { 'x-directory-actor': 'Ana' },
      body: { projects: [{ ...p, description: 'Changed by Ana herself.' }] },
    });
    await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...p, description: 'Changed by the bootstrap key.' }] },
    });
    const after = (await s.call('GET', `/api/projects/${slugOf(p)}/revisions`, { key: false })).json
      .revisions;
    expect(after[1]).toMatchObject({ actor: 'Ana', key: { id: k.id, name: 'curator-ana' } });
    // the bootstrap key is named as /api/keys/self names it; it is no named key
    expect(after[0]).toMatchObject({ actor: 'bootstrap', key: null });
    expect((await s.call('GET', '/api/keys/self')).json.data).toMatchObject({ id: null, name: 'bootstrap' });
  });

  it('refuses an actor or a key name that is not plain (bidi override, zero-width, separator, filler) with 400', async () => {
    const p = project();
    const hidden = [
      'system\u202enimda',
      'a\u200bb',
      'x\u2066y',
      '\u3164',
      'a\u115Fb',
      '\u2800',
      'a\u034Fb',
      'a\u2028b',
    ];
    for (const actor of hidden) {
      const r = await s.call('POST', '/api/webhook/projects', {
        headers: { 'x-directory-actor': encodeURIComponent(actor) },
        body: { projects: [p] },
      });
      expect(r.status, actor).toBe(400);
      expect(r.json.details[0]).toMatch(/^header X-Directory-Actor: Must not contain control, format/);
    }
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
    for (const name of ['evil\u202egnp.exe', ...hidden]) {
      const r = await s.call('POST', '/api/keys', { body: { name, scopes: ['tasks:read'] } });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json.details).toEqual([expect.stringMatching(/^name: Must not contain control, format/)]);
    }
  });

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
