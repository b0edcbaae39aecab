import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, spawnServer } from './helpers.ts';

/**
 * SIGHUP to a host of WEB_CONCURRENCY processes (apps/server/src/cluster.ts,
 * docs/operating.md#reloads): its processes are replaced one at a time, each new one taking
 * connections only once its read model is ready, each old one finishing what it has — and no
 * request of a load running through it fails.
 */

/** GET on a new connection: the status, or 0 when the connection failed. */
function fresh(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 15_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve(0));
  });
}

describe.runIf(POSTGRES_URL)('a rolling reload (SIGHUP) under load', () => {
  it('replaces every process with no request failed', async () => {
    const database = await freshPostgresDatabase();
    const server = await spawnServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      WEBHOOK_API_KEY: `k-reload-${Date.now().toString(36)}`,
    });
    try {
      // until both first processes have built their models (they listen at once and answer 503
      // until then); a ready answer says only that one of them is, since each process accepts its
      // own connections (docs/decisions.md, "Server processes")
      const count = (msg: string) => server.output().split(`"msg":"${msg}"`).length - 1;
      for (let i = 0; i < 600 && count('read model built') < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(count('read model built')).toBe(2);
      const listening = () => count('listening');
      expect(listening()).toBe(2);

      let running = true;
      const answers: number[] = [];
      const load = async () => {
        for (let i = 0; running; i++) {
          const path = i % 2 === 0 ? '/healthz' : '/api/projects?limit=5';
          answers.push(await fresh(`${server.baseUrl}${path}`));
        }
      };
      const loaders = [load(), load(), load(), load()];
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.child.kill('SIGHUP');
      for (let i = 0; i < 1200 && !server.output().includes('"msg":"reloaded"'); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setTimeout(resolve, 500));
      running = false;
      await Promise.all(loaders);

      expect(server.output()).toContain('"msg":"reloaded"');
      // two new processes listened, two old ones stopped
      expect(listening()).toBe(4);
      expect(server.output().match(/"signal":"reload","msg":"shutting down"/g)).toHaveLength(2);
      expect(answers.length).toBeGreaterThan(50);
      const failed = answers.filter((status) => status !== 200);
      expect({ requests: answers.length, failed: failed.length }).toEqual({
        requests: answers.length,
        failed: 0,
      });
      // and the host serves on
      expect(await fresh(`${server.baseUrl}/healthz`)).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
      await database.drop();
    }
  }, 180_000);
});
