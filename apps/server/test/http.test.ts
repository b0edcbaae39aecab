import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

const UNAUTHORIZED = { success: false, error: 'Unauthorized', details: ['Invalid or missing API Key'] };

describe.each(targets)('HTTP behaviour on $name', (target) => {
  const s = useServer(target);

  const upsert = (body: unknown, key?: string | false) =>
    s.call('POST', '/api/webhook/projects', { body, key });

  describe('the API key', () => {
    it('accepts header only, body only, or both when both match', async () => {
      expect((await upsert({ projects: [project()] })).status).toBe(200);
      expect((await upsert({ apiKey: s.key, projects: [project()] }, false)).status).toBe(200);
      expect((await upsert({ apiKey: s.key, projects: [project()] })).status).toBe(200);
    });

    it('refuses when header and body disagree, whichever is right', async () => {
      expect((await upsert({ apiKey: 'wrong', projects: [project()] })).json).toEqual(UNAUTHORIZED);
      expect((await upsert({ apiKey: s.key, projects: [project()] }, 'wrong')).json).toEqual(UNAUTHORIZED);
    });

    it('counts an empty header as sent and wrong, and a non-string body key as wrong', async () => {
      expect((await upsert({ apiKey: s.key, projects: [project()] }, '')).status).toBe(401);
      expect((await upsert({ apiKey: 123, projects: [project()] }, false)).status).toBe(401);
      expect((await upsert({ apiKey: null, projects: [project()] }, false)).status).toBe(401);
    });

    it('ignores a key in the query string', async () => {
      const r = await s.call('GET', `/api/discovery/tasks?apiKey=${s.key}`, { key: false });
      expect(r.json).toEqual(UNAUTHORIZED);
    });

    it('is not needed for the two reads of one record', async () => {
      expect((await s.call('GET', '/api/projects/none', { key: false })).status).toBe(404);
      expect((await s.call('GET', '/api/discovery/tasks/none', { key: false })).status).toBe(404);
    });
  });

  describe('order of checks: 413, 401, 400, 404, 409', () => {
    it('413 before the key, with the reply delivered after a large body', async () => {
      const raw = JSON.stringify({ projects: [{ content: 'x'.repeat(6 * 1024 * 1024) }] });
      const r = await s.call('POST', '/api/webhook/projects', { raw, key: false });
      expect(r.status).toBe(413);
      expect(r.json).toMatchObject({ success: false, error: 'Payload too large' });
      // the connection is still usable afterwards
      expect((await s.call('GET', '/healthz')).status).toBe(200);
    });

    it('a full batch of 100 projects with maximal content fits the default limit', async () => {
      const projects = Array.from({ length: 100 }, () =>
        project({ content: 'x'.repeat(10000), contentEn: 'y'.repeat(10000) }),
      );
      const r = await upsert({ projects });
      expect(r.status).toBe(200);
      expect(r.json.created).toBe(100);
    });

    it('401 before 400: a malformed body supplies no key', async () => {
      expect(
        (await s.call('POST', '/api/webhook/projects', { raw: `{"apiKey":"${s.key}",`, key: false })).status,
      ).toBe(401);
      const r = await s.call('POST', '/api/webhook/projects', { raw: '{"projects": [' });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        success: false,
        error: 'Validation error',
        details: ['body: Malformed JSON'],
      });
    });

    it('401 before 400 before 404 before 409', async () => {
      expect(
        (await s.call('PATCH', '/api/discovery/tasks/none', { body: { status: 'X' }, key: false })).status,
      ).toBe(401);
      expect((await s.call('PATCH', '/api/discovery/tasks/none', { body: { status: 'X' } })).status).toBe(
        400,
      );
      expect(
        (await s.call('PATCH', '/api/discovery/tasks/none', { body: { status: 'FAILED' } })).status,
      ).toBe(404);
    });

    it('a JSON body that is not an object is 400', async () => {
      for (const raw of ['[]', '"text"', '42', 'null']) {
        const r = await s.call('POST', '/api/discovery/tasks', { raw });
        expect(r.status).toBe(400);
        expect(r.json.details).toEqual(['body: Expected a JSON object']);
      }
    });

    it('parses the body as JSON whatever its content type', async () => {
      const r = await s.call('POST', '/api/webhook/projects', {
        raw: JSON.stringify({ projects: [project()] }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(r.status).toBe(200);
    });
  });

  describe('routes', () => {
    it('answers a known path with another method with 405 and Allow', async () => {
      const r = await s.call('PUT', '/api/discovery/tasks/abc');
      expect(r.status).toBe(405);
      expect(r.json.error).toBe('Method Not Allowed');
      expect(r.headers.get('allow')).toBe('GET, PATCH');
    });

    it('answers a path with a broken %-escape with 400, not 500', async () => {
      const r = await s.call('GET', '/api/projects/%E0%A4%A');
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ success: false, error: 'Validation error' });
    });

    it('answers unknown paths with 404 in the envelope, as JSON', async () => {
      for (const [method, path] of [
        // `/` is the web console (web-console.test.ts); reserved prefixes never fall back to it
        ['GET', '/healthz/x'],
        ['GET', '/assets/missing.js'],
        ['POST', '/api/unknown'],
        ['GET', '/api/discovery/tasks/a/b/c'],
      ] as const) {
        const r = await s.call(method, path);
        expect(r.status).toBe(404);
        expect(r.json).toMatchObject({ success: false, error: 'Not Found' });
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });
  });

  describe('validation', () => {
    it('lists every violation with its dotted path', async () => {
      const r = await upsert({
        projects: [
          project({ name: '', tags: [], links: [{ type: 'X', url: 'nope' }] }),
          project({ status: 'DRAFT' }),
        ],
      });
      expect(r.status).toBe(400);
      expect(r.json.details).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^projects\.0\.name: /),
          expect.stringMatching(/^projects\.0\.tags: /),
          expect.stringMatching(/^projects\.0\.links\.0\.type: /),
          expect.stringMatching(/^projects\.0\.links\.0\.url: /),
          expect.stringMatching(/^projects\.1\.status: /),
        ]),
      );
    });

    it('refuses text PostgreSQL cannot store, without a 500', async () => {
      const r = await upsert({ projects: [project({ description: 'ten chars\u0000!!' })] });
      expect(r.status).toBe(400);
      expect(r.json.details[0]).toMatch(/^projects\.0\.description: /);
      const long = await s.call('POST', '/api/discovery/tasks', {
        body: { tasks: [{ sourceUrl: `https://example.org/${'字'.repeat(1000)}` }] },
      });
      expect(long.status).toBe(400);
    });
  });

  describe('one item failing in the database', () => {
    it("is that item's failure alone, with a reference, and the batch answers 200", async () => {
      await s.db.pool.query(`
        create function refuse_boom() returns trigger language plpgsql as $$
        begin
          if new.name = 'boom' then raise exception 'refused by test trigger'; end if;
          return new;
        end $$;
        create trigger refuse_boom before insert or update on projects for each row execute function refuse_boom();
      `);
      try {
        const r = await upsert({ projects: [project(), project({ name: 'boom' }), project()] });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ processed: 3, created: 2, updated: 0, failed: 1 });
        expect(r.json.errors).toEqual([
          {
            index: 1,
            name: 'boom',
            error: expect.stringMatching(
              /^Internal error while saving this item \(reference [0-9a-f-]{36}\)$/,
            ),
          },
        ]);
        expect(r.text).not.toContain('refused by test trigger');
      } finally {
        await s.db.pool.query('drop trigger refuse_boom on projects; drop function refuse_boom();');
      }
    });
  });

  describe('where an input error is', () => {
    it('names a query parameter error `query`, a body error `body`', async () => {
      const stats = await s.call('GET', '/api/discovery/stats?x=1');
      expect(stats.status).toBe(400);
      expect(stats.json).toEqual({
        success: false,
        error: 'Validation error',
        details: ['query: Unrecognized key: "x"'],
      });
      const list = await s.call('GET', '/api/discovery/tasks?limit=abc');
      expect(list.json.details).toEqual([expect.stringMatching(/^limit: /)]);
      const body = await s.call('POST', '/api/discovery/tasks', { raw: '[1]' });
      expect(body.json.details).toEqual(['body: Expected a JSON object']);
    });
  });

  describe('requests refused before routing', () => {
    it('answers headers over the limit with 431 in the envelope', async () => {
      const r = await s.call('GET', `/api/projects/${'a'.repeat(20_000)}`);
      expect(r.status).toBe(431);
      expect(r.json).toMatchObject({ success: false, error: 'Request header fields too large' });
    });
  });

  describe('a request line with raw UTF-8 (curl without --data-urlencode)', () => {
    /** Sends bytes as they are (fetch would percent-encode) and returns the raw reply. */
    const rawRequest = (requestLine: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(s.baseUrl);
        const socket = connect(Number(port), hostname, () =>
          socket.write(Buffer.from(`${requestLine}\r\nHost: x\r\nConnection: close\r\n\r\n`, 'utf8')),
        );
        let reply = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => {
          reply += chunk;
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(reply));
      });

    it('is 400 saying what to percent-encode and how', async () => {
      const reply = await rawRequest('GET /api/projects?q=通义 HTTP/1.1');
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({ success: false, error: 'Validation error', details: [expect.any(String)] });
      const [detail] = body.details;
      expect(detail).toMatch(/^request: /);
      expect(detail).toContain('percent-encode');
      expect(detail).toContain("curl -G --data-urlencode 'q=通义'");
      // the same query percent-encoded is answered normally
      expect((await s.call('GET', `/api/projects?q=${encodeURIComponent('通义')}`)).status).toBe(200);
    });
  });

  describe('server errors', () => {
    it('are generic, carry a request id, and leak no SQL', async () => {
      await s.db.pool.query('alter table discovery_tasks rename to discovery_tasks_away');
      try {
        const r = await s.call('GET', '/api/discovery/tasks');
        expect(r.status).toBe(500);
        expect(r.json.success).toBe(false);
        expect(r.json.error).toBe('Internal server error');
        expect(r.json.details).toEqual([expect.stringMatching(/request id [0-9a-f-]{36}/)]);
        expect(r.text).not.toMatch(/discovery_tasks|select|relation/i);
      } finally {
        await s.db.pool.query('alter table discovery_tasks_away rename to discovery_tasks');
      }
    });
  });

  describe('tRPC', () => {
    it('serves the same procedures and key rule at /trpc', async () => {
      const denied = await s.call('POST', '/trpc/tasks.create', {
        body: { tasks: [{ sourceUrl: 'https://x.org/t' }] },
        key: false,
      });
      expect(denied.status).toBe(401);
      const ok = await s.call('POST', '/trpc/tasks.create', {
        body: { tasks: [{ sourceUrl: 'https://x.org/trpc' }] },
      });
      expect(ok.status).toBe(200);
      expect(ok.json.result.data).toEqual({ success: true, created: 1, skipped: 0, total: 1 });
      const missing = await s.call(
        'GET',
        `/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ slug: 'none' }))}`,
      );
      expect(missing.status).toBe(404);
      expect(missing.json.error.data).toMatchObject({
        error: 'Not Found',
        details: ['Project with slug "none" not found'],
      });
      expect((await s.call('GET', '/trpc/no.such.procedure')).status).toBe(404);
      expect((await s.call('GET', '/trpc/tasks.list?input=%7B')).status).toBe(400);
    });
  });
});
