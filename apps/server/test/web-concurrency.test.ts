import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, project, spawnServer } from './helpers.ts';

/**
 * WEB_CONCURRENCY (apps/server/src/cluster.ts): several server processes on one port, each with
 * its own read model; on PGlite one process, and the log says why.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** A request on `agent` (one keep-alive socket: always the same process) or on a new connection. */
function call(
  base: string,
  method: string,
  path: string,
  options: { agent?: Agent; key?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: options.agent ?? false,
        headers: {
          ...(options.key && { 'x-api-key': options.key }),
          ...(body && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** Which process answers on this connection (GET /healthz?verbose=1 names it), once it is ready. */
async function processOf(base: string, agent?: Agent): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const r = await call(base, 'GET', '/healthz?verbose=1', { agent });
    if (r.status === 200) return r.json.process;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('not ready');
}

describe('WEB_CONCURRENCY on PGlite', () => {
  it('runs one process and says why', async () => {
    const server = await spawnServer({
      DATABASE_URL: 'memory:',
      WEB_CONCURRENCY: '2',
      WEBHOOK_API_KEY: 'k-pglite',
    });
    try {
      expect(server.output()).toMatch(/"webConcurrency":2,"msg":"WEB_CONCURRENCY=2 needs PostgreSQL/);
      expect((await server.call('GET', '/healthz')).status).toBe(200);
      expect(server.output().match(/"msg":"listening"/g)).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a WEB_CONCURRENCY that is not a positive integer', async () => {
    await expect(spawnServer({ DATABASE_URL: 'memory:', WEB_CONCURRENCY: 'two' })).rejects.toThrow(
      /Invalid configuration: WEB_CONCURRENCY must be an integer >= 1/,
    );
  });
});

describe.runIf(POSTGRES_URL)('WEB_CONCURRENCY=2 on PostgreSQL', () => {
  it('two processes serve on one port with one admin key, and a write through one is found through the other', async () => {
    const database = await freshPostgresDatabase();
    // no WEBHOOK_API_KEY: the first process makes the admin key in the database
    // (docs/keys-and-limits.md#the-bootstrap-key)
    const server = await spawnServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      WEBHOOK_API_KEY: '',
    });
    const agents: Agent[] = [];
    try {
      let key: string | undefined;
      for (let i = 0; i < 200 && key === undefined; i++) {
        key = /shown only now: (dir_\w+)/.exec(server.output())?.[1];
        if (key === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(key).toBeDefined();
      expect(server.output().match(/shown only now/g)).toHaveLength(1);
      // a connection per process: each new connection goes to the process that accepts it first
      // (one busy building its model leaves them to the other for a while)
      const byProcess = new Map<number, Agent>();
      for (let i = 0; i < 200 && byProcess.size < 2; i++) {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        const id = await processOf(server.baseUrl, agent);
        if (byProcess.has(id)) agent.destroy();
        else byProcess.set(id, agent);
      }
      expect([...byProcess.keys()].sort()).toEqual([1, 2]);
      const one = byProcess.get(1)!;
      const two = byProcess.get(2)!;
      // the same connection stays with its process
      expect(await processOf(server.baseUrl, one)).toBe(1);

      const word = `cluster${Date.now().toString(36)}`;
      const written = await call(server.baseUrl, 'POST', '/api/webhook/projects', {
        agent: one,
        key: key!,
        body: { projects: [project({ description: `A project written through process one: ${word}.` })] },
      });
      expect(written.status).toBe(200);
      expect(written.json.created).toBe(1);
      const position = written.headers['x-directory-position'];
      expect(position).toEqual(expect.any(String));
      // the other process, asked with the write's position, answers only once it has the write
      const found = await call(server.baseUrl, 'GET', `/api/projects?q=${word}&minPosition=${position}`, {
        agent: two,
      });
      expect(found.status).toBe(200);
      expect(found.json.total).toBe(1);
      expect(await processOf(server.baseUrl, two)).toBe(2);
      // the key works on the other process too
      const other = await call(server.baseUrl, 'POST', '/api/discovery/tasks', {
        agent: two,
        key: key!,
        body: { tasks: [{ sourceUrl: `https://example.org/${word}` }] },
      });
      expect(other.status).toBe(200);
    } finally {
      for (const agent of agents) agent.destroy();
      // SIGTERM to the primary stops both processes, and it exits 0
      expect(await server.stop()).toBe(0);
      expect(server.output().match(/"msg":"stopped"/g)).toHaveLength(2);
      await database.drop();
    }
  }, 120_000);
});
