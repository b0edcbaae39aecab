import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/** `{"projects":[{},{},…]}` with `items` items: 1.7 million is about 5 MB, under the body limit. */
const wide = (items: number, extra = '') => `{${extra}"projects":[${'{},'.repeat(items - 1)}{}]}`;

/**
 * A POST whose body never finishes: the status the server answers before the body (or 'no
 * answer' after `waitMs`), then the connection is closed.
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

describe.each(targets)('wide bodies and repeated parameters on $name (docs/keys-and-limits.md)', (target) => {
  const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 0, perKey: 0 } });

  const projectsWriter = async () => {
    const r = await s.call('POST', '/api/keys', { body: { name: 'crawler', scopes: ['projects:write'] } });
    expect(r.status, r.text).toBe(201);
    return r.json.data.key as string;
  };

  it('eight 5 MB wide bodies, without a key or with a valid one, leave /healthz answering', async () => {
    const key = await projectsWriter();
    const body = wide(1_700_000);
    expect(body.length).toBeLessThan(5 * 1024 * 1024);
    for (const sender of [false, key] as const) {
      const sends = Array.from({ length: 8 }, () =>
        s.call('POST', '/api/webhook/projects', { raw: body, key: sender }).then((r) => r.status),
      );
      let worst = 0;
      let done = false;
      const all = Promise.all(sends).finally(() => {
        done = true;
      });
      while (!done) {
        const started = Date.now();
        expect((await s.call('GET', '/healthz', { key: false })).status).toBe(200);
        worst = Math.max(worst, Date.now() - started);
      }
      expect(await all).toEqual(Array(8).fill(sender === false ? 401 : 400));
      // before: each body cost ~1.3 s of the event loop (parsed and every item validated) and
      // /healthz waited 4.8 s on the same shared machine; a generous bound for it
      expect(worst, `worst /healthz ${worst} ms with key ${sender !== false}`).toBeLessThan(2_500);
    }
  }, 120_000);

  it('an array over its maximum is a 400 before any item is looked at; the key comes first', async () => {
    const key = await projectsWriter();
    const items = `[${Array.from({ length: 101 }, (_, i) => i).join(',')}]`;
    const long = await s.call('POST', '/api/webhook/projects', { raw: `{"projects":${items}}`, key });
    expect(long.status).toBe(400);
    expect(long.json.details).toEqual(['projects: Too big: expected array to have <=100 items']);
    // the body's own key, wherever it sits, is checked first (401, 403 before 400)
    const behind = `{"projects":${items},"apiKey":"dir_wrong"}`;
    expect((await s.call('POST', '/api/webhook/projects', { raw: behind, key: false })).status).toBe(401);
    const keyed = `{"projects":${items},"apiKey":${JSON.stringify(key)}}`;
    const inBody = await s.call('POST', '/api/webhook/projects', { raw: keyed, key: false });
    expect(inBody.status).toBe(400);
    expect(inBody.json.details).toEqual(['projects: Too big: expected array to have <=100 items']);
    const reader = await s.call('POST', '/api/keys', { body: { name: 'reader', scopes: ['tasks:read'] } });
    const forbidden = `{"apiKey":${JSON.stringify(reader.json.data.key)},"projects":${items}}`;
    expect((await s.call('POST', '/api/webhook/projects', { raw: forbidden, key: false })).status).toBe(403);
    // nested arrays by their own maximum: tags hold at most 10
    const tags = Array.from({ length: 11 }, (_, i) => ({ name: `t${i}` }));
    const nested = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ name: 'x', description: 'long enough', tags, links: [] }] },
      key,
    });
    expect(nested.json.details).toEqual(['projects.0.tags: Too big: expected array to have <=10 items']);
    // an escaped name is the same name; a key that is not a string is a wrong key
    const escaped = `{"api\\u004bey":${JSON.stringify(key)},"projects":${items}}`;
    expect((await s.call('POST', '/api/webhook/projects', { raw: escaped, key: false })).status).toBe(400);
    expect((await s.call('POST', '/api/webhook/projects', { raw: '{"apiKey":7}', key: false })).status).toBe(
      401,
    );
    // tRPC: the same maximum before tRPC parses the body
    const trpc = await s.call('POST', '/trpc/projects.upsert', { raw: `{"projects":${items}}`, key });
    expect(trpc.status).toBe(400);
    expect(trpc.json.error.data.details).toEqual(['projects: Too big: expected array to have <=100 items']);
  });

  it('a keyed tRPC call without a key in a header is 401 before its body is read, whatever its path', async () => {
    for (const path of ['/trpc/keys.create', '/trpc/x/keys.create', '/trpc/projects.upsert'])
      expect(await answerBeforeBody(s.baseUrl, path, {}), path).toBe(401);
  });

  it('a parameter that takes one value is 400 when repeated; lists may repeat', async () => {
    const limit = await s.call('GET', '/api/projects?limit=1&limit=2', { key: false });
    expect(limit.status).toBe(400);
    expect(limit.json.details).toEqual(['limit: Must be given once (it was repeated)']);
    expect((await s.call('GET', '/api/projects?tag=a&tag=b&linkType=WEBSITE&linkType=PAPER')).status).toBe(
      200,
    );
    const calls = Array.from({ length: 10 }, () => 'projects.find').join(',');
    const input = encodeURIComponent(
      JSON.stringify(Object.fromEntries([...Array(10)].map((_, i) => [i, {}]))),
    );
    const batch = await s.call('GET', `/trpc/${calls}?batch=1&batch=1&input=${input}`);
    expect(batch.status).toBe(400);
    expect(JSON.stringify(batch.json)).toContain('batch: Must be given once');
    expect((await s.call('GET', `/trpc/${calls}?batch=1&input=${input}`)).status).toBe(200);
  });

  it('a tRPC batch counts every call it runs against a key limit', async () => {
    const r = await s.call('POST', '/api/keys', {
      body: { name: 'limited', scopes: ['tasks:read'], rateLimit: { requests: 5, windowSeconds: 60 } },
    });
    const key = r.json.data.key as string;
    const calls = Array.from({ length: 10 }, () => 'projects.find').join(',');
    const input = encodeURIComponent(
      JSON.stringify(Object.fromEntries([...Array(10)].map((_, i) => [i, {}]))),
    );
    // `batch=true` is no batch to tRPC: one call (of a path no procedure has), counted as one
    const notBatch = await s.call('GET', `/trpc/${calls}?batch=true&input=${input}`, { key });
    expect(notBatch.status).toBe(404);
    expect(notBatch.headers.get('ratelimit')).toMatch(/r=4\b/);
    expect((await s.call('GET', `/trpc/${calls}?batch=1&input=${input}`, { key })).status).toBe(429);
  });
});
