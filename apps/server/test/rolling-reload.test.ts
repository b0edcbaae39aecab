import { Agent, get, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, type ServerProcess, spawnServer } from './helpers.ts';

/**
 * SIGHUP to a host of WEB_CONCURRENCY processes (apps/server/src/cluster.ts,
 * docs/operating.md#reloads): its processes are replaced one at a time, each new one taking
 * connections only once its read model is ready, each old one finishing what it has — and no
 * request of a load running through it fails, on new connections or on kept-alive ones.
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

/**
 * A POST (which no client sends again by itself) on `agent`'s kept-alive connection: the status,
 * or 0 when the connection failed; `reused` when it went on a connection that had served before.
 */
function post(url: string, agent: Agent, body: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent,
      timeout: 15_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.once('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
      res.on('error', () => resolve({ status: 0, reused: req.reusedSocket }));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve({ status: 0, reused: req.reusedSocket }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `load` while the host reloads: from 500 ms before the SIGHUP to 500 ms after `reloaded`. */
async function throughReload(server: ServerProcess, load: (running: () => boolean) => Promise<void>) {
  let running = true;
  const loaders = [1, 2, 3, 4].map(() => load(() => running));
  await sleep(500);
  server.child.kill('SIGHUP');
  for (let i = 0; i < 1200 && !server.output().includes('"msg":"reloaded"'); i++) await sleep(100);
  await sleep(500);
  running = false;
  await Promise.all(loaders);
  expect(server.output()).toContain('"msg":"reloaded"');
}

describe.runIf(POSTGRES_URL)('a rolling reload (SIGHUP) under load', () => {
  const KEY = `k-reload-${Date.now().toString(36)}`;
  /** A host of two processes, both with their models built. */
  async function host(test: (server: ServerProcess) => Promise<void>) {
    const database = await freshPostgresDatabase();
    const server = await spawnServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      WEBHOOK_API_KEY: KEY,
    });
    try {
      // until both first processes have built their models (they listen at once and answer 503
      // until then); a ready answer says only that one of them is, since each process accepts its
      // own connections (docs/decisions.md, "Server processes")
      const count = (msg: string) => server.output().split(`"msg":"${msg}"`).length - 1;
      for (let i = 0; i < 600 && count('read model built') < 2; i++) await sleep(100);
      expect(count('read model built')).toBe(2);
      expect(count('listening')).toBe(2);
      await test(server);
      // two new processes listened, two old ones stopped; and the host serves on
      expect(count('listening')).toBe(4);
      expect(server.output().match(/"signal":"reload","msg":"shutting down"/g)).toHaveLength(2);
      expect(await fresh(`${server.baseUrl}/healthz`)).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
      await database.drop();
    }
  }

  it('replaces every process with no request failed, each on a new connection', async () => {
    await host(async (server) => {
      const answers: number[] = [];
      await throughReload(server, async (running) => {
        for (let i = 0; running(); i++) {
          const path = i % 2 === 0 ? '/healthz' : '/api/projects?limit=5';
          answers.push(await fresh(`${server.baseUrl}${path}`));
        }
      });
      expect(answers.length).toBeGreaterThan(50);
      const failed = answers.filter((status) => status !== 200);
      expect({ requests: answers.length, failed: failed.length }).toEqual({
        requests: answers.length,
        failed: 0,
      });
    });
  }, 180_000);

  it('fails no POST on a kept-alive connection: a retiring process closes none another would not', async () => {
    await host(async (server) => {
      const body = JSON.stringify({ apiKey: KEY, projects: [{ slug: 'no-such-project' }] });
      const answers: { status: number; reused: boolean }[] = [];
      const agents: Agent[] = [];
      await throughReload(server, async (running) => {
        // one kept-alive connection per client, a short pause between requests (a connection idle
        // now and then, as a crawler's is)
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        for (let i = 0; running(); i++) {
          answers.push(await post(`${server.baseUrl}/api/webhook/check-duplicates`, agent, body));
          await sleep(i % 7);
        }
      });
      for (const agent of agents) agent.destroy();
      expect(answers.length).toBeGreaterThan(50);
      // most went on a connection that had served before
      expect(answers.filter((a) => a.reused).length).toBeGreaterThan(answers.length / 2);
      const failed: Record<number, number> = {};
      for (const { status } of answers) if (status !== 200) failed[status] = (failed[status] ?? 0) + 1;
      expect({ requests: answers.length, failed }).toEqual({ requests: answers.length, failed: {} });
    });
  }, 180_000);
});
