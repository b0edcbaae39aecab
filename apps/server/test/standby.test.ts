import { describe, expect, it } from 'vitest';
import { project } from './helpers.ts';
import { MAX_LAG_MS, skipReason, useStandbyCluster, waitFor } from './standby-cluster.ts';
import { outages } from './standby-outages.ts';
import { readYourWrites } from './standby-read-your-writes.ts';

/**
 * Hot standbys (docs/operating.md#standbys): a private primary and a streaming standby of it
 * (initdb, then pg_basebackup -R -X stream), and two server processes that read from the
 * standby. Read your writes, freshness across processes, the feed's order, the standby
 * stopped, its replay paused past the lag limit, and the primary restarted under load.
 * The cluster and its helpers are standby-cluster.ts; read your writes is standby-read-your-writes.ts
 * and the outages standby-outages.ts, registered here so that all run on one cluster.
 */

describe.skipIf(skipReason !== undefined)(
  `a primary, a hot standby and two processes reading from it${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const c = useStandbyCluster();

    it('reads from the standby, and shows its lag in /healthz?verbose=1 and /metrics', async () => {
      const { a, b, reads } = c;
      for (const s of [a, b])
        await waitFor('reads from the standby', async () =>
          (await reads(s)).from === 'standby 1' ? true : undefined,
        );
      const health = await a.call('GET', '/healthz?verbose=1', { key: false });
      expect(health.json.reads).toMatchObject({
        from: 'standby 1',
        maxLagMs: MAX_LAG_MS,
        primaryReachable: true,
        standbys: [{ name: 'standby 1', reachable: true, inRecovery: true, replayPaused: false }],
      });
      expect(health.json.reads.standbys[0].lagBytes).toBeTypeOf('number');
      expect(health.json.reads.standbys[0].lagSeconds).toBeTypeOf('number');
      expect(JSON.stringify(health.json)).not.toContain('postgres:x@');
      const metrics = await a.call('GET', '/metrics');
      expect(metrics.text).toContain('db_reads_from{source="standby 1"} 1');
      expect(metrics.text).toMatch(/db_standby_lag_seconds\{standby="standby 1"\} \d/);
      expect(metrics.text).toMatch(/db_standby_lag_bytes\{standby="standby 1"\} \d/);
    });

    readYourWrites(c);

    it('another process finds a write within 1 s', async () => {
      const { a, b, reads, upsert, word } = c;
      await waitFor('b on the standby', async () =>
        (await reads(b)).from === 'standby 1' ? true : undefined,
      );
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const w = word();
        const sent = Date.now();
        expect((await upsert(a, [project({ nameEn: `Seen ${w}` })])).status).toBe(200);
        await waitFor(
          `${w} in b`,
          async () => {
            const r = await b.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
            return r.json.projects.length > 0 ? true : undefined;
          },
          1_000,
        );
        latencies.push(Date.now() - sent);
      }
      expect(Math.max(...latencies)).toBeLessThan(1_000);
    }, 60_000);

    it('the feed read through a standby-backed process is gap-free and in order', async () => {
      const { primary, a, b, sql, upsert } = c;
      const before = (await sql(primary, 'select project_id from changes order by xid, id')).length;
      let cursor = '';
      for (;;) {
        const r = await b.call(
          'GET',
          `/api/changes?limit=1000${cursor && `&after=${encodeURIComponent(cursor)}`}`,
        );
        cursor = r.json.nextCursor;
        if (!r.json.hasMore) break;
      }
      // two writers at once: transactions commit out of order across processes
      const writers = [a, b].map(async (s) => {
        for (let i = 0; i < 15; i++) expect((await upsert(s, [project(), project()])).status).toBe(200);
      });
      const seen: string[] = [];
      let done = false;
      const reader = (async () => {
        for (;;) {
          const r = await b.call('GET', `/api/changes?limit=7&wait=1&after=${encodeURIComponent(cursor)}`);
          expect(r.status, r.text).toBe(200);
          for (const c of r.json.changes) seen.push(c.projectId);
          cursor = r.json.nextCursor;
          if (done && r.json.changes.length === 0) break;
        }
      })();
      await Promise.all(writers);
      done = true;
      await reader;
      // every change once, in the primary's order
      const all = await sql(primary, 'select project_id from changes order by xid, id');
      expect(all.length - before).toBe(60);
      expect(seen).toEqual(all.slice(before).map((r) => r.project_id));
    }, 60_000);

    outages(c);
  },
);
