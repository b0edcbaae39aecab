import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createApp, createHttpServer } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { firstLines, openStream, readNdjson } from './export-helpers.ts';
import { client, targets, useServer } from './helpers.ts';

/** Exports of 1,000 projects of ~6 KB each: cut, resumed, stalled, left (docs/api.md#export-get-apiexport). */

const PROJECTS = 1_000;
const big = (n: number) => ({
  name: `导出项目 ${n}`,
  nameEn: `Export project ${n}`,
  description: `Export project number ${n}, with a long content.`,
  content: `${'内容 content, "quoted"\n'.repeat(250)} ${n}`,
  tags: [{ name: '导出', nameEn: 'Export' }],
  links: [{ type: 'CODEHOST', url: `https://github.com/export-stream/p${n}` }],
});

describe.each(targets)('streamed exports on $name', (target) => {
  const s = useServer(target);

  /** An export by this key, once the key's previous one has been let go (at most 3 s). */
  const exportAfterRelease = async (path: string, key = s.key) => {
    const until = Date.now() + 3_000;
    for (;;) {
      const opened = await openStream(s.baseUrl, path, { 'x-api-key': key });
      if (opened.res.statusCode !== 429 || Date.now() > until) return opened;
      opened.res.resume();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('seeds 1,000 projects', async () => {
    for (let i = 0; i < PROJECTS; i += 100) {
      const batch = Array.from({ length: 100 }, (_, k) => big(i + k));
      const r = await s.call('POST', '/api/webhook/projects', { body: { projects: batch, results: false } });
      expect(r.status, r.text).toBe(200);
    }
  }, 120_000);

  it('cut after every 100th line and resumed with after=<last id>: every project exactly once', async () => {
    const whole = readNdjson((await s.call('GET', '/api/export')).text);
    expect(whole.header.count).toBe(PROJECTS);
    const seen: string[] = [];
    let after: string | undefined;
    for (let part = 0; part < 20; part++) {
      const { res, req } = await exportAfterRelease(`/api/export${after ? `?after=${after}` : ''}`);
      expect(res.statusCode).toBe(200);
      const [head, ...lines] = await firstLines(res, req, 101);
      const header = JSON.parse(head ?? '');
      expect(header.count).toBe(PROJECTS - seen.length);
      if (lines.length === 0) break;
      for (const line of lines) seen.push(JSON.parse(line).id);
      after = seen[seen.length - 1];
    }
    expect(seen).toHaveLength(PROJECTS);
    expect(new Set(seen).size).toBe(PROJECTS);
    expect(seen).toEqual(whole.projects.map((p) => p.id));
  }, 120_000);

  it('one export at a time per key (429 with Retry-After); a stalled client holds up no writes; leaving releases everything', async () => {
    const stalled = await exportAfterRelease('/api/export');
    expect(stalled.res.statusCode).toBe(200);
    stalled.res.pause();
    // the second export of the same key
    const second = await s.call('GET', '/api/export');
    expect(second.status, second.text).toBe(429);
    expect(second.json.error).toBe('Too Many Requests');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // another key exports meanwhile
    const other = await s.call('POST', '/api/keys', {
      body: { name: 'second exporter', scopes: ['export'] },
    });
    const otherExport = await s.call('GET', '/api/export?status=ARCHIVED', { key: other.json.data.key });
    expect(otherExport.status).toBe(200);
    // writes go on while the client stalls
    const write = await s.call('POST', '/api/webhook/projects', { body: { projects: [big(5_000)] } });
    expect(write.status, write.text).toBe(200);
    // the client leaves: the snapshot ends, the connection is returned, the key may export again
    stalled.req.destroy();
    const again = await exportAfterRelease('/api/export');
    expect(again.res.statusCode).toBe(200);
    const [head] = await firstLines(again.res, again.req, 1);
    expect(JSON.parse(head ?? '').count).toBe(PROJECTS + 1);
    const after = await s.call('POST', '/api/webhook/projects', { body: { projects: [big(5_001)] } });
    expect(after.status).toBe(200);
    if (target.postgres) {
      const c = new pg.Client({ connectionString: s.databaseUrl });
      await c.connect();
      try {
        const until = Date.now() + 3_000;
        let open = -1;
        while (open !== 0 && Date.now() < until) {
          const { rows } = await c.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and state like 'idle in transaction%'`,
          );
          open = rows[0].n;
          if (open !== 0) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(open).toBe(0);
      } finally {
        await c.end();
      }
    }
  }, 60_000);

  it.runIf(target.postgres)(
    'one export per key across processes sharing the database (the advisory lock)',
    async () => {
      // a second app (its own slots, as another process has) on the same database
      const app = createApp({
        db: s.db.db,
        apiKey: s.key,
        logger: createLogger('silent'),
        bodyLimitBytes: 1024 * 1024,
        webDir: false,
      });
      const server = createHttpServer(app).listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const other = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, s.key);
      try {
        const stalled = await exportAfterRelease('/api/export');
        expect(stalled.res.statusCode).toBe(200);
        stalled.res.pause();
        const refused = await other.call('GET', '/api/export');
        expect(refused.status, refused.text).toBe(429);
        stalled.req.destroy();
        const until = Date.now() + 3_000;
        let status = 429;
        while (status === 429 && Date.now() < until) {
          const r = await other.call('GET', '/api/export?status=ARCHIVED');
          status = r.status;
        }
        expect(status).toBe(200);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
    30_000,
  );
});
