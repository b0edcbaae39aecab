import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(targets)(
  'a refused key stays refused on $name (docs/keys-and-limits.md#revoking-a-key)',
  (target) => {
    const s = useServer(target);

    const createKey = async (scopes: string[]) => {
      const r = await s.call('POST', '/api/keys', { body: { name: `k-${scopes.join('-')}`, scopes } });
      expect(r.status, r.text).toBe(201);
      return r.json.data as { id: string; key: string };
    };

    it('a body that arrives after its key was revoked is 401, and nothing is written', async () => {
      const k = await createKey(['projects:write']);
      const p = project();
      const body = JSON.stringify({ projects: [p] });
      const status = new Promise<number>((resolve, reject) => {
        const req = request(`${s.baseUrl}/api/webhook/projects`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'x-api-key': k.key },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        void (async () => {
          await sleep(200);
          expect((await s.call('DELETE', `/api/keys/${k.id}`)).status).toBe(200);
          // every process refuses a revoked key within a second
          await sleep(1_100);
          req.end(body.slice(10));
        })();
      });
      expect(await status).toBe(401);
      expect((await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
    });

    it('an open long-poll of the change feed ends within a second of its key being revoked', async () => {
      const k = await createKey(['changes:read']);
      const first = await s.call('GET', '/api/changes?limit=1000', { key: k.key });
      expect(first.status).toBe(200);
      const cursor = first.json.nextCursor as string;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 6_000);
      const polled = fetch(`${s.baseUrl}/api/changes?after=${cursor}&wait=30`, {
        headers: { 'x-api-key': k.key },
        signal: controller.signal,
      }).then(
        async (r) => ({
          status: r.status,
          json: (await r.json()) as { changes?: unknown[] },
          at: Date.now(),
        }),
        () => ({ status: 0, json: undefined, at: Date.now() }),
      );
      await sleep(300);
      expect((await s.call('DELETE', `/api/keys/${k.id}`)).status).toBe(200);
      const revokedAt = Date.now();
      // a change after the revocation is not delivered to it
      await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
      const answer = await polled;
      clearTimeout(timer);
      expect(answer.status, 'the long-poll was still open after 6 s').not.toBe(0);
      if (answer.status === 200) expect(answer.json?.changes).toEqual([]);
      else expect(answer.status).toBe(401);
      expect(answer.at - revokedAt).toBeLessThan(1_500);
    });
  },
);
