import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, spawnServer } from './helpers.ts';

/**
 * /metrics of a host running WEB_CONCURRENCY processes (apps/server/src/cluster-metrics.ts,
 * docs/operating.md#metrics-get-metrics): whichever process a scrape reaches, it answers every
 * process's series, each with its `process` label, so a counter never goes back between scrapes.
 */

/** GET on a new connection (no keep-alive), which either process may accept: status and body. */
function fresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).once('error', reject);
  });
}

/** GET /metrics with the key on a new connection: status and body as `text`. */
function scrapeMetrics(base: string, key: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(`${base}/metrics`, { agent: false, headers: { 'x-api-key': key } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).once('error', reject);
  });
}

/** Every sample of the exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** Each metric's TYPE line comes once, before its samples (as Prometheus's parser demands). */
function typesOnce(text: string): void {
  const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
  const names = types.map((l) => l.split(' ')[2]);
  expect(new Set(names).size).toBe(names.length);
}

describe.runIf(POSTGRES_URL)('/metrics under WEB_CONCURRENCY=3', () => {
  it('answers every process on every scrape, counters never going back', async () => {
    const database = await freshPostgresDatabase();
    const key = `k-metrics-${Date.now().toString(36)}`;
    const server = await spawnServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '3',
      WEBHOOK_API_KEY: key,
    });
    try {
      // until each process has answered ready (new connections go to whichever accepts first)
      const ready = new Set<number>();
      for (let i = 0; i < 600 && ready.size < 3; i++) {
        const r = await fresh(`${server.baseUrl}/healthz?verbose=1`);
        if (r.status === 200) ready.add((JSON.parse(r.body) as { process: number }).process);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect([...ready].sort()).toEqual([1, 2, 3]);
      // every /healthz answer of a process, whatever its status (one not ready yet answers 503)
      const healthz = (all: Map<string, number>, process: string) =>
        [...all]
          .filter(([k]) => k.startsWith('http_requests_total{') && k.includes('route="/healthz"'))
          .filter(([k]) => k.includes(`process="${process}"`))
          .reduce((sum, [, n]) => sum + n, 0);
      let last = new Map<string, number>();
      for (let scrape = 0; scrape < 20; scrape++) {
        // requests on new connections, each accepted by one process or the other
        await Promise.all([1, 2, 3, 4].map(() => fresh(`${server.baseUrl}/healthz`)));
        // the scrape itself on a new connection too: whichever process takes it answers for all
        const r = await scrapeMetrics(server.baseUrl, key);
        expect(r.status).toBe(200);
        typesOnce(r.text);
        const now = samples(r.text);
        for (const p of ['1', '2', '3']) {
          expect(healthz(now, p)).toBeGreaterThan(0);
          expect(healthz(now, p)).toBeGreaterThanOrEqual(healthz(last, p));
        }
        // no series of a counter went back
        for (const [k, n] of now)
          if (k.startsWith('http_requests_total{')) expect(n).toBeGreaterThanOrEqual(last.get(k) ?? 0);
        expect(now.get('server_processes_reporting')).toBe(3);
        // the primary's own figures, and the service's once, without a process label
        expect(now.get('process_resident_memory_bytes{process="primary"}')).toBeGreaterThan(0);
        expect(now.get('db_primary_up')).toBe(1);
        expect([...now.keys()].filter((k) => k.startsWith('discovery_tasks{status="PENDING"'))).toEqual([
          'discovery_tasks{status="PENDING"}',
        ]);
        expect(
          [...now.keys()]
            .filter((k) => k.startsWith('build_info{'))
            .map((k) => k.replace(/commit="\w+"/, ''))
            .sort(),
        ).toEqual([1, 2, 3].map((p) => `build_info{version="0.1.0",,process="${p}"}`));
        last = now;
      }
      // the log names the process of every line, and the level by name
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes('"msg":"listening"'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 'info', process: expect.stringMatching(/^[123]$/) });
      expect(JSON.parse(line).pid).toEqual(expect.any(Number));
    } finally {
      expect(await server.stop()).toBe(0);
      await database.drop();
    }
  }, 120_000);
});
