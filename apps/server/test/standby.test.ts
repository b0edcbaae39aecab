import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, project, type ServerProcess, spawnServer } from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * Hot standbys (docs/operating.md#standbys): a private primary and a streaming standby of it
 * (initdb, then pg_basebackup -R -X stream), and two server processes that read from the
 * standby. Read your writes, freshness across processes, the feed's order, the standby
 * stopped, its replay paused past the lag limit, and the primary restarted under load.
 */

const postgres = findPostgres();
const skipReason = 'reason' in postgres ? postgres.reason : undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_LAG_MS = 1_000;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
}

describe.skipIf(skipReason !== undefined)(
  `a primary, a hot standby and two processes reading from it${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const tools = postgres as Exclude<typeof postgres, { reason: string }>;
    const key = `standby-key-${randomBytes(6).toString('hex')}`;
    let primary: PrivateCluster;
    let standby: PrivateCluster;
    let a: ServerProcess;
    let b: ServerProcess;
    /** Connections to the primary and the standby, for the test's own queries. */
    const sql = async (cluster: PrivateCluster, text: string, values: unknown[] = []) => {
      const c = new pg.Client({ connectionString: cluster.url('x', 'directory') });
      c.on('error', () => {});
      await c.connect();
      try {
        return (await c.query(text, values)).rows;
      } finally {
        await c.end().catch(() => {});
      }
    };

    beforeAll(async () => {
      primary = await createCluster(tools);
      await primary.start();
      const admin = new pg.Client({ connectionString: primary.url('x') });
      await admin.connect();
      await admin.query('create database directory');
      await admin.end();
      standby = await createCluster(tools, {
        standbyOf: primary,
        settings: ['hot_standby_feedback=on', 'wal_retrieve_retry_interval=200ms'],
      });
      await standby.start();
      const env = {
        DATABASE_URL: primary.url('x', 'directory'),
        DATABASE_READ_URL: standby.url('x', 'directory'),
        READ_MAX_LAG_MS: String(MAX_LAG_MS),
        WEBHOOK_API_KEY: key,
        DB_POOL_SIZE: '4',
        TASK_REAP_INTERVAL_MS: '0',
      };
      [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
      await Promise.all([ready(a), ready(b)]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a, b].map((s) => s?.stop('SIGKILL')));
      await standby?.destroy();
      await primary?.destroy();
    }, 60_000);

    async function ready(s: Client) {
      await waitFor(
        '/healthz 200',
        async () => ((await s.call('GET', '/healthz', { key: false })).status === 200 ? true : undefined),
        60_000,
      );
    }

    /** Where the process reads now ('standby 1' or 'primary'), and its position. */
    async function reads(s: Client): Promise<{ from: string; position: number }> {
      const r = await s.call('GET', '/healthz?verbose=1', { key: false });
      return { from: r.json?.reads?.from, position: r.json?.position };
    }

    const upsert = (s: Client, projects: unknown[]) =>
      s.call('POST', '/api/webhook/projects', { body: { projects } });
    const word = () => `w${randomBytes(5).toString('hex').replace(/\d/g, 'q')}`;

    it('reads from the standby, and shows its lag in /healthz?verbose=1 and /metrics', async () => {
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

    it('the writing process serves its write at once, even while the standby has not replayed it', async () => {
      // replay paused: the standby is behind every write below, yet within the lag limit
      // for a moment; each round starts with the process reading from the standby again
      for (let round = 0; round < 3; round++) {
        await waitFor('reads from the standby', async () =>
          (await reads(a)).from === 'standby 1' ? true : undefined,
        );
        await sql(standby, 'select pg_wal_replay_pause()');
        try {
          const w = word();
          const p = project({ nameEn: `Mine ${w}`, description: `First version of ${w}.` });
          const created = await upsert(a, [p]);
          expect(created.status, created.text).toBe(200);
          const slug = created.json.results[0].slug;
          for (let v = 2; v <= 4; v++) {
            const get = await a.call('GET', `/api/projects/${slug}`, { key: false });
            expect(get.status, get.text).toBe(200);
            const search = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
            expect(search.json.projects.map((x: any) => x.slug)).toContain(slug);
            const description = `Version ${v} of ${w}.`;
            const updated = await upsert(a, [{ ...p, description }]);
            expect(updated.json).toMatchObject({ updated: 1, failed: 0 });
            const again = await a.call('GET', `/api/projects/${slug}`, { key: false });
            expect(again.json.data.description).toBe(description);
            const history = await a.call('GET', `/api/projects/${slug}/revisions`, { key: false });
            expect(history.status, history.text).toBe(200);
            expect(history.json.revisions).toHaveLength(v);
          }
          const deleted = await a.call('DELETE', `/api/projects/${slug}`);
          expect(deleted.status, deleted.text).toBe(200);
          expect((await a.call('GET', `/api/projects/${slug}`, { key: false })).status).toBe(404);
        } finally {
          await sql(standby, 'select pg_wal_replay_resume()');
        }
      }
    }, 60_000);

    it('synonyms and a tag rename are read back by the process that wrote them while the standby has not replayed them (docs/operating.md#read-your-writes)', async () => {
      const [w, other] = [word(), word()];
      const tag = { name: `标签 ${w}`, nameEn: `Tag ${w}` };
      const created = await upsert(a, [
        project({ nameEn: `Tagged ${w}`, description: `About ${w}.`, tags: [tag] }),
      ]);
      expect(created.status, created.text).toBe(200);
      const slug = created.json.results[0].slug as string;
      const tagSlug = (await a.call('GET', `/api/projects/${slug}`, { key: false })).json.data.tags[0]
        .slug as string;
      await waitFor('reads from the standby', async () =>
        (await reads(a)).from === 'standby 1' ? true : undefined,
      );
      await waitFor('the standby has the project', async () =>
        (await sql(standby, 'select 1 from projects where slug = $1', [slug])).length === 1
          ? true
          : undefined,
      );
      await sql(standby, 'select pg_wal_replay_pause()');
      try {
        const put = await a.call('PUT', '/api/search/synonyms', { body: { sets: [[w, other]] } });
        expect(put.status, put.text).toBe(200);
        // before: read on the standby, the old sets
        const got = await a.call('GET', '/api/search/synonyms', { key: false });
        expect(got.json.sets).toContainEqual([w, other]);
        const search = await a.call('GET', `/api/projects?q=${other}&limit=5`, { key: false });
        expect(search.json.projects.map((x: any) => x.slug)).toContain(slug);

        const renamed = await a.call('PATCH', `/api/tags/${tagSlug}`, { body: { nameEn: `Renamed ${w}` } });
        expect(renamed.status, renamed.text).toBe(200);
        // pages and the project itself, read again and again while the standby still has the old name
        for (let i = 0; i < 3; i++) {
          const page = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
          const item = page.json.projects.find((x: any) => x.slug === slug);
          expect(item?.tags[0].nameEn).toBe(`Renamed ${w}`);
          const one = await a.call('GET', `/api/projects/${slug}`, { key: false });
          expect(one.json.data.tags[0].nameEn).toBe(`Renamed ${w}`);
        }
      } finally {
        await sql(standby, 'select pg_wal_replay_resume()');
      }
      // and once the standby has caught up, still the new name
      await waitFor('the standby replayed the rename', async () =>
        (await sql(standby, 'select 1 from tags where name_en = $1', [`Renamed ${w}`])).length === 1
          ? true
          : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const page = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
      expect(page.json.projects.find((x: any) => x.slug === slug)?.tags[0].nameEn).toBe(`Renamed ${w}`);
    }, 60_000);

    it('a dismissal of duplicates is read back by the process that wrote it while the standby has not replayed it', async () => {
      const w = word();
      // one name spelt two ways: a "name" group of duplicates, written by the other process
      // (so that process a has no write of its own the standby lacks before its dismissal)
      const created = await upsert(b, [
        project({ name: `Twin ${w}`, nameEn: `Twin ${w} one`, description: `One of ${w}.` }),
        project({ name: `twin-${w}`, nameEn: `Twin ${w} two`, description: `The other of ${w}.` }),
      ]);
      expect(created.status, created.text).toBe(200);
      const slugs = created.json.results.map((r: any) => r.slug as string).sort();
      const listed = async () => {
        const r = await a.call('GET', '/api/projects/duplicates?limit=100');
        expect(r.status, r.text).toBe(200);
        return r.json.groups.some((g: any) => g.projects.some((p: any) => p.slug === slugs[0]));
      };
      await waitFor('reads from the standby', async () =>
        (await reads(a)).from === 'standby 1' ? true : undefined,
      );
      await waitFor('the standby lists the pair', async () => ((await listed()) ? true : undefined));
      await sql(standby, 'select pg_wal_replay_pause()');
      try {
        const dismissed = await a.call('POST', '/api/projects/duplicates/dismiss', { body: { slugs } });
        expect(dismissed.status, dismissed.text).toBe(200);
        expect(await listed()).toBe(false);
        const pairs = await a.call('GET', '/api/projects/duplicates?dismissed=true&limit=100');
        expect(
          pairs.json.dismissals.map((d: any) => d.projects.map((p: any) => p.slug).sort()),
        ).toContainEqual(slugs);
        const undone = await a.call('DELETE', '/api/projects/duplicates/dismiss', { body: { slugs } });
        expect(undone.status, undone.text).toBe(200);
        expect(await listed()).toBe(true);
      } finally {
        await sql(standby, 'select pg_wal_replay_resume()');
      }
    }, 60_000);

    it('another process finds a write within 1 s', async () => {
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

    it('the standby stopped and started under read load: every read answers 200', async () => {
      const made = await upsert(
        a,
        Array.from({ length: 20 }, () => project()),
      );
      const slugs: string[] = made.json.results.map((r: any) => r.slug);
      let stop = false;
      const failures: string[] = [];
      let count = 0;
      const readers = [a, b].flatMap((s) =>
        [0, 1].map(async (n) => {
          while (!stop) {
            const slug = slugs[(count + n) % slugs.length];
            const path =
              count % 3 === 0
                ? `/api/projects/${slug}/revisions`
                : count % 3 === 1
                  ? `/api/projects/${slug}`
                  : `/api/projects?q=${encodeURIComponent('测试项目')}&limit=3`;
            const r = await s.call('GET', path, { key: false });
            count++;
            if (r.status !== 200) failures.push(`${path}: ${r.status} ${r.text}`);
          }
        }),
      );
      await sleep(300);
      await standby.stop('fast');
      await waitFor(
        'reads from the primary',
        async () => ((await reads(b)).from === 'primary' ? true : undefined),
        2_000,
      );
      await sleep(500);
      await standby.start();
      for (const s of [a, b])
        await waitFor('reads from the standby again', async () =>
          (await reads(s)).from === 'standby 1' ? true : undefined,
        );
      await sleep(300);
      stop = true;
      await Promise.all(readers);
      expect(failures).toEqual([]);
      expect(count).toBeGreaterThan(50);
    }, 90_000);

    it('replay paused past the lag limit: reads move to the primary and back, the position never moves back', async () => {
      await waitFor('b on the standby', async () =>
        (await reads(b)).from === 'standby 1' ? true : undefined,
      );
      const positions: number[] = [];
      await sql(standby, 'select pg_wal_replay_pause()');
      const pausedAt = Date.now();
      let stop = false;
      // writes keep coming: the standby falls behind
      const writer = (async () => {
        while (!stop) {
          expect((await upsert(a, [project()])).status).toBe(200);
          await sleep(50);
        }
      })();
      try {
        await waitFor(
          'b to read from the primary',
          async () => {
            const r = await reads(b);
            positions.push(r.position);
            return r.from === 'primary' ? true : undefined;
          },
          MAX_LAG_MS + 2_500,
        );
        expect(Date.now() - pausedAt).toBeLessThan(MAX_LAG_MS + 2_500);
        // the other process still finds new writes within 1 s
        for (let i = 0; i < 3; i++) {
          const w = word();
          const sent = Date.now();
          expect((await upsert(a, [project({ nameEn: `Paused ${w}` })])).status).toBe(200);
          await waitFor(
            `${w} in b`,
            async () => {
              const r = await b.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
              positions.push((await reads(b)).position);
              return r.json.projects.length > 0 ? true : undefined;
            },
            1_000,
          );
          expect(Date.now() - sent).toBeLessThan(1_000);
        }
      } finally {
        await sql(standby, 'select pg_wal_replay_resume()');
      }
      await waitFor('b back on the standby', async () => {
        const r = await reads(b);
        positions.push(r.position);
        return r.from === 'standby 1' ? true : undefined;
      });
      stop = true;
      await writer;
      for (let i = 1; i < positions.length; i++)
        expect(positions[i]).toBeGreaterThanOrEqual(positions[i - 1]!);
    }, 60_000);

    it('the primary restarted under read and write load: reads 200, writes 200 or 503 with Retry-After, none lost', async () => {
      const seeded = await upsert(
        a,
        Array.from({ length: 20 }, () => project()),
      );
      const slugs: string[] = seeded.json.results.map((r: any) => r.slug);
      for (const s of [a, b])
        await waitFor('on the standby', async () =>
          (await reads(s)).from === 'standby 1' ? true : undefined,
        );
      // b has seen them all
      await waitFor('b has the seeded projects', async () => {
        const r = await b.call('GET', `/api/projects/${slugs.at(-1)}`, { key: false });
        return r.status === 200 ? true : undefined;
      });
      let stop = false;
      let reads200 = 0;
      const readFailures: string[] = [];
      const writeOutcomes = new Map<string, number>();
      const acknowledged: string[] = [];
      const readers = [a, b].map(async (s, n) => {
        let i = n;
        while (!stop) {
          const path =
            i % 2 === 0
              ? `/api/projects/${slugs[i % slugs.length]}`
              : `/api/projects?q=${encodeURIComponent('测试项目')}&limit=3`;
          i++;
          const r = await s.call('GET', path, { key: false });
          if (r.status === 200) reads200++;
          else readFailures.push(`${path}: ${r.status} ${r.text}`);
        }
      });
      const writers = [a, b].map(async (s) => {
        while (!stop) {
          const p = project();
          const r = await s
            .call('POST', '/api/webhook/projects', { body: { projects: [p] } })
            .catch((err) => ({ status: 0, text: String(err), json: undefined, headers: new Headers() }));
          const outcome =
            r.status === 503 && r.headers.get('retry-after') ? '503+Retry-After' : String(r.status);
          writeOutcomes.set(outcome, (writeOutcomes.get(outcome) ?? 0) + 1);
          if (r.status === 200 && r.json?.created === 1) acknowledged.push(r.json.results[0].slug);
          else if (r.status === 503) await sleep(50);
          else if (r.status === 200) writeOutcomes.set(`200 ${r.text}`, 1);
        }
      });
      await sleep(500);
      await primary.stop('fast');
      await sleep(1_500);
      await primary.start();
      await waitFor('a write to succeed again', async () =>
        (writeOutcomes.get('200') ?? 0) > 0 && acknowledged.length > 0 ? true : undefined,
      );
      const before = acknowledged.length;
      await waitFor('more writes after the restart', async () =>
        acknowledged.length > before + 5 ? true : undefined,
      );
      stop = true;
      await Promise.all([...readers, ...writers]);
      expect(readFailures).toEqual([]);
      expect(reads200).toBeGreaterThan(20);
      // the primary was down for 1.5 s: writes were refused meanwhile, and only so
      expect([...writeOutcomes.keys()].sort()).toEqual(['200', '503+Retry-After']);
      const stored = await sql(primary, 'select slug from projects where slug = any($1::text[])', [
        acknowledged,
      ]);
      expect(stored.map((r) => r.slug).sort()).toEqual([...acknowledged].sort());
      expect(a.child.exitCode).toBeNull();
      expect(b.child.exitCode).toBeNull();
    }, 90_000);
  },
);
