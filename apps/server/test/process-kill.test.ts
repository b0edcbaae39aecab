import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, spawnServer } from './helpers.ts';

/**
 * `kill -9` of one process of a host of WEB_CONCURRENCY processes under a load of requests
 * (apps/server/src/cluster.ts, docs/operating.md#reloads): the requests it had fail at once (their
 * connections are closed), none is left unanswered, and a new process takes its slot.
 */

type Outcome = 'ok' | 'failed' | 'hung';

/** GET on a new connection, given `timeoutMs` to be answered: 'hung' when it was not. */
function fresh(url: string, timeoutMs = 5_000): Promise<{ outcome: Outcome; body: string }> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ outcome: res.statusCode === 200 ? 'ok' : 'failed', body }));
      res.on('error', () => resolve({ outcome: 'failed', body }));
    });
    const timer = setTimeout(() => {
      resolve({ outcome: 'hung', body: '' });
      req.destroy();
    }, timeoutMs);
    req.once('close', () => clearTimeout(timer));
    req.once('error', () => resolve({ outcome: 'failed', body: '' }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(POSTGRES_URL)('kill -9 of one process under load', () => {
  it('leaves no request unanswered, and a new process takes the slot', async () => {
    const database = await freshPostgresDatabase();
    const server = await spawnServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      WEBHOOK_API_KEY: `k-kill-${Date.now().toString(36)}`,
    });
    const lines = (msg: string) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes(`"msg":"${msg}"`));
    try {
      for (let i = 0; i < 600 && lines('read model built').length < 2; i++) await sleep(100);
      expect(lines('read model built')).toHaveLength(2);
      const victim = lines('listening')
        .map((line) => JSON.parse(line) as { pid: number; process: string })
        .find((line) => line.process === '2');
      if (!victim) throw new Error(`process 2 did not log 'listening':\n${server.output()}`);

      // 16 clients, each sending one request after another, each on a new connection
      let running = true;
      const outcomes: Outcome[] = [];
      const load = async () => {
        for (let i = 0; running; i++) {
          const path = i % 2 === 0 ? '/healthz' : '/api/projects?limit=5';
          outcomes.push((await fresh(`${server.baseUrl}${path}`)).outcome);
        }
      };
      const clients = Array.from({ length: 16 }, load);
      await sleep(1_500);
      process.kill(victim.pid, 'SIGKILL');
      // the primary starts another in its slot, which listens once its read model is ready
      for (let i = 0; i < 300 && lines('listening').length < 3; i++) await sleep(100);
      expect(lines('a server process exited; starting another')).toHaveLength(1);
      expect(lines('listening')).toHaveLength(3);
      const beforeReplacement = outcomes.length;
      await sleep(1_000);
      running = false;
      await Promise.all(clients);

      const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
      // every request answered or its connection closed within 5 s; only those the killed
      // process held can fail (one per client at most)
      expect({ hung: count('hung') }).toEqual({ hung: 0 });
      expect(count('failed')).toBeLessThanOrEqual(16);
      expect(count('ok')).toBeGreaterThan(100);
      // once the new process serves, every request succeeds
      expect(outcomes.slice(beforeReplacement).every((o) => o === 'ok')).toBe(true);

      // and the host answers from both slots again
      const slots = new Set<number>();
      for (let i = 0; i < 200 && slots.size < 2; i++) {
        const r = await fresh(`${server.baseUrl}/healthz?verbose=1`);
        if (r.outcome === 'ok') slots.add((JSON.parse(r.body) as { process: number }).process);
      }
      expect([...slots].sort()).toEqual([1, 2]);
    } finally {
      expect(await server.stop()).toBe(0);
      await database.drop();
    }
  }, 60_000);
});
