import { connect as netConnect } from 'node:net';
import { appRouter } from '@directory/core';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  project,
  type Reply,
  slugOf,
  startServer,
  type TestServer,
  targets,
  uniqueUrl,
  useServer,
} from './helpers.ts';

/** A logger whose JSON lines are kept in memory. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

describe.each(targets)('operating the server on $name', (target) => {
  describe('request ids and logs', () => {
    const { logger, lines } = capturingLogger();
    const s = useServer(target, { logger });

    it('returns a fresh id in X-Request-Id, keeps a plain caller id, and replaces anything else', async () => {
      const fresh = await s.call('GET', '/healthz', { key: false });
      expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const kept = await s.call('GET', '/healthz', { key: false, headers: { 'x-request-id': 'edge-42.a' } });
      expect(kept.headers.get('x-request-id')).toBe('edge-42.a');
      const replaced = await s.call('GET', '/healthz', {
        key: false,
        headers: { 'x-request-id': 'no spaces or "quotes" please' },
      });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('puts the id on every line logged for a request, and in the reference of a 500', async () => {
      await s.db.pool.query('alter table discovery_tasks rename to discovery_tasks_away');
      let reply: Reply;
      try {
        reply = await s.call('GET', '/api/discovery/tasks');
      } finally {
        await s.db.pool.query('alter table discovery_tasks_away rename to discovery_tasks');
      }
      expect(reply.status).toBe(500);
      const id = reply.headers.get('x-request-id');
      expect(reply.json.details[0]).toContain(`request id ${id}`);
      const logged = lines.filter((l) => l.requestId === id);
      expect(logged.map((l) => l.msg).sort()).toEqual(['request', 'unexpected error']);
      expect(
        lines.filter((l) => l.msg === 'request' || l.msg === 'unexpected error').every((l) => l.requestId),
      ).toBe(true);
      expect(JSON.stringify(lines)).not.toContain(s.key);
    });
  });

  describe('GET /metrics', () => {
    const s = useServer(target);

    it('counts requests by route pattern and status, times them, and shows the pool and tasks by status', async () => {
      const p = project();
      await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
      await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false });
      await s.call('GET', '/api/projects/no-such-project', { key: false });
      await s.call('GET', '/api/projects/no-such-project-either', { key: false });
      await s.call('POST', '/api/discovery/tasks', {
        body: { tasks: [{ sourceUrl: uniqueUrl() }, { sourceUrl: uniqueUrl() }, { sourceUrl: uniqueUrl() }] },
      });
      const list = await s.call('GET', '/api/discovery/tasks?limit=1');
      await s.call('PATCH', `/api/discovery/tasks/${list.json.tasks[0].id}`, {
        body: { status: 'IN_PROGRESS' },
      });

      // behind metrics:read (docs/operating.md#metrics-get-metrics): the bootstrap key has every scope
      const r = await fetch(`${s.baseUrl}/metrics`, { headers: { 'x-api-key': s.key } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await r.text();
      const sample = (name: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${name} `));
        return line === undefined ? undefined : Number(line.slice(name.length + 1));
      };
      expect(sample('http_requests_total{method="GET",route="/api/projects/:slug",status="404"}')).toBe(2);
      expect(sample('http_requests_total{method="GET",route="/api/projects/:slug",status="200"}')).toBe(1);
      expect(sample('http_requests_total{method="POST",route="/api/webhook/projects",status="200"}')).toBe(1);
      expect(
        sample('http_request_duration_seconds_count{method="GET",route="/api/projects/:slug",status="404"}'),
      ).toBe(2);
      expect(
        sample(
          'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/projects/:slug",status="404"}',
        ),
      ).toBe(2);
      // Raw paths (slugs, ids) never become series of their own.
      expect(text).not.toContain('no-such-project');
      expect(sample('discovery_tasks{status="PENDING"}')).toBe(2);
      expect(sample('discovery_tasks{status="IN_PROGRESS"}')).toBe(1);
      expect(sample('discovery_tasks{status="COMPLETED"}')).toBe(0);
      expect(sample('db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample('db_pool_connections{state="waiting"}')).toBe(0);
      expect(text).not.toContain(s.key);
    });
  });

  describe('rate limiting', () => {
    const servers: TestServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.close()));
    });
    const start = async (rateLimit: { windowMs: number; perAddress: number; perKey: number }) => {
      const s = await startServer(target, { rateLimit });
      servers.push(s);
      return s;
    };

    it('is off by default: no limit, no RateLimit headers', async () => {
      const s = await startServer(target);
      servers.push(s);
      for (let i = 0; i < 30; i++) {
        const r = await s.call('GET', '/api/projects/nothing-here', { key: false });
        expect(r.status).toBe(404);
        expect(r.headers.get('ratelimit')).toBeNull();
      }
    });

    it('per client address: answers 429 in the envelope with the standard headers once the limit is used', async () => {
      const s = await start({ windowMs: 60_000, perAddress: 3, perKey: 0 });
      const replies = [];
      for (let i = 0; i < 4; i++)
        replies.push(await s.call('GET', '/api/projects/nothing-here', { key: false }));
      expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 429]);
      expect(replies[0]?.headers.get('ratelimit-policy')).toBe('"anon";q=3;w=60');
      expect(replies[0]?.headers.get('ratelimit')).toMatch(/^"anon";r=2;t=\d+$/);
      const refused = replies[3]!;
      expect(refused.json).toEqual({
        success: false,
        error: 'Too Many Requests',
        details: [
          expect.stringMatching(/^Rate limit exceeded: at most 3 requests per 60 s per client address/),
        ],
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The health check and the docs are not limited; the document lists the 429.
      expect((await s.call('GET', '/healthz', { key: false })).status).toBe(200);
      const doc = (await s.call('GET', '/api/openapi.json', { key: false })).json;
      // every operation of the router (the ten of docs/api.md and every other), and the export,
      // the one streamed route beside them (docs/api.md#export-get-apiexport)
      const operations = Object.entries(doc.paths)
        .filter(([path]) => path !== '/api/export')
        .flatMap(([, path]: [string, any]) => Object.values(path)) as any[];
      expect(operations.length).toBe(
        Object.values(appRouter._def.procedures).filter((p: any) => p._def.meta?.openapi).length,
      );
      expect(doc.paths['/api/export'].get.responses['429']).toBeDefined();
      for (const operation of operations)
        expect(operation.responses['429'].content['application/json'].schema.$ref).toMatch(
          /RateLimitedError$/,
        );
    });

    it('is not in the OpenAPI document when off', async () => {
      const s = await startServer(target);
      servers.push(s);
      const doc = (await s.call('GET', '/api/openapi.json', { key: false })).json;
      // the export's 429 is its own rule (one export at a time per key), not the rate limit's
      const { '/api/export': _export, ...paths } = doc.paths;
      expect(JSON.stringify({ ...doc, paths })).not.toContain('"429"');
    });

    it('per API key: each key has its own budget; the refusal happens before anything is written', async () => {
      const s = await start({ windowMs: 60_000, perAddress: 0, perKey: 2 });
      const statuses = async (key: string) => {
        const out = [];
        for (let i = 0; i < 3; i++) out.push((await s.call('GET', '/api/discovery/tasks', { key })).status);
        return out;
      };
      expect(await statuses(s.key)).toEqual([200, 200, 429]);
      // a wrong key is no key: counted per client address, which is not limited here
      expect(await statuses('some-other-key')).toEqual([401, 401, 401]);
      const p = project();
      const refused = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
      expect(refused.status).toBe(429);
      expect((await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
      // A request without the header is not counted per key.
      expect((await s.call('GET', '/api/projects/nothing-here', { key: false })).status).toBe(404);
    });
  });

  describe('timeouts', () => {
    const s = useServer(target, {
      timeouts: { requestTimeoutMs: 1_500, headersTimeoutMs: 1_000, keepAliveTimeoutMs: 1_000 },
    });

    it('answers a request whose body never arrives in full with 408 in the envelope, and closes it', async () => {
      const { port } = new URL(s.baseUrl);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = netConnect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/webhook/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
              `x-api-key: ${s.key}\r\nContent-Length: 1000\r\n\r\n{"projects":`,
          );
        });
        let data = '';
        socket.on('data', (chunk) => {
          data += chunk;
        });
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        success: false,
        error: 'Request Timeout',
        details: ['request: The request was not received in time'],
      });
    });
  });
});
