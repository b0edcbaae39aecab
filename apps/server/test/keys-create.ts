import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { expect, it } from 'vitest';
import { project, type TestServer } from './helpers.ts';
import { BASE58_KEY, type CreateKey } from './keys-helpers.ts';

/**
 * Creating named keys and checking them on a request (docs/keys-and-limits.md#named-keys-and-scopes,
 * docs/keys-and-limits.md#body-input-and-time-limits): shown once and stored as SHA-256, bad input
 * refused, the 403 of a missing scope, Bearer, a key refused before its body is read, the order of
 * the checks, and the nesting depth of a body. Registered by keys.test.ts, on its server.
 */

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

export function keyCreation(s: TestServer, createKey: CreateKey): void {
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
}
