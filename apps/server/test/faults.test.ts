import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  type Reply,
  type ServerProcess,
  slugOf,
  spawnServer,
  uniqueUrl,
} from './helpers.ts';
import { createCluster, findPostgres, type PrivateCluster } from './private-cluster.ts';

/**
 * Faults the server must survive: the server process killed with SIGKILL in the middle of a
 * stream of batch upserts, and its PostgreSQL server stopped and started again under it.
 * Both run only when TEST_DATABASE_URL is set, like the other PostgreSQL tests.
 */

const RUN = randomBytes(3).toString('hex');
const newKey = () => `fault-key-${randomBytes(8).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something other than undefined, or fails after `timeoutMs`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. SIGKILL in the middle of a stream of 100-project batches
// ---------------------------------------------------------------------------------------------

const BATCH = 100;
const UPDATES_PER_BATCH = 10;
const ACKED_BATCHES_PER_CYCLE = 3;

interface LinkInput {
  type: string;
  url: string;
}
interface TagInput {
  name: string;
  nameEn?: string;
}

/** Version `v` of project number `n`: every version has 3 links and 3 tags, in a version-specific order. */
interface Version {
  n: number;
  v: number;
  input: { name: string; nameEn: string; description: string; links: LinkInput[]; tags: TagInput[] };
}

function version(n: number, v: number): Version {
  // The CODEHOST url identifies the project; the other links and the tags change with each version.
  const codehost: LinkInput = { type: 'CODEHOST', url: `https://codehost.example.org/${RUN}/p${n}` };
  const website: LinkInput = { type: 'WEBSITE', url: uniqueUrl(`site-${n}-v${v}`) };
  const paper: LinkInput = { type: 'PAPER', url: uniqueUrl(`paper-${n}-v${v}`) };
  const shared: TagInput = { name: `fault ${RUN} shared ${n % 7}` };
  const a: TagInput = { name: `fault ${RUN} ${n} v${v} a`, nameEn: `Fault ${RUN} ${n} v${v} A` };
  const b: TagInput = { name: `fault ${RUN} ${n} v${v} b` };
  const odd = v % 2 === 1;
  return {
    n,
    v,
    input: {
      name: `故障项目 ${n} 第${v}版`,
      nameEn: `Fault ${RUN} ${n} v${v}`,
      description: `Fault injection project ${n}, version ${v}.`,
      links: odd ? [codehost, website, paper] : [paper, codehost, website],
      tags: odd ? [shared, a, b] : [b, a, shared],
    },
  };
}

const NAME_EN = new RegExp(`^Fault ${RUN} (\\d+) v(\\d+)$`);

/** One project as stored: its fields, its links and tag names in their stored order. */
interface StoredProject {
  slug: string;
  name: string;
  name_en: string | null;
  description: string;
  links: LinkInput[];
  tags: string[];
}

/** How a project stored whole as `version` reads back. */
const storedShape = ({ input }: Version) => ({
  name: input.name,
  name_en: input.nameEn,
  description: input.description,
  links: input.links.map(({ type, url }) => ({ type, url })),
  tags: input.tags.map((t) => t.name),
});

interface Batch {
  projects: Version['input'][];
  versions: Version[];
  created: number;
  updated: number;
}

describe.skipIf(!POSTGRES_URL)('the server killed with SIGKILL in the middle of batch upserts', () => {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  let monitor: pg.Client | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    fresh = await freshPostgresDatabase();
    monitor = new pg.Client({ connectionString: fresh.url });
    await monitor.connect();
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await monitor?.end();
    await fresh?.drop();
  });

  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await monitor!.query<R>(text, values)).rows;

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const s = await spawnServer(env);
    servers.push(s);
    return s;
  }

  let nextN = 0;
  /** Last version of each project known to be stored (acknowledged, or seen after a restart). */
  const known = new Map<number, Version>();

  /** A batch of BATCH projects: UPDATES_PER_BATCH new versions of known projects, the rest new. */
  function makeBatch(updates = UPDATES_PER_BATCH): Batch {
    const candidates = [...known.keys()].sort(() => Math.random() - 0.5).slice(0, updates);
    const versions = [
      ...candidates.map((n) => version(n, known.get(n)!.v + 1)),
      ...Array.from({ length: BATCH - candidates.length }, () => version(++nextN, 1)),
    ].sort(() => Math.random() - 0.5);
    return {
      projects: versions.map((v) => v.input),
      versions,
      created: BATCH - candidates.length,
      updated: candidates.length,
    };
  }

  const send = (s: ServerProcess, batch: Batch) =>
    s.call('POST', '/api/webhook/projects', { body: { projects: batch.projects } });

  /** Acknowledged totals, summed over every batch whose 200 the client received. */
  const acked = { created: 0, newProjects: new Set<number>() };
  /** New projects of killed batches found stored after the restart. */
  const survivedNew = new Set<number>();

  function acknowledge(batch: Batch, reply: Reply) {
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      success: true,
      processed: BATCH,
      created: batch.created,
      updated: batch.updated,
      failed: 0,
      errors: [],
      results: expect.any(Array),
    });
    acked.created += reply.json.created;
    for (const v of batch.versions) {
      if (v.v === 1) acked.newProjects.add(v.n);
      known.set(v.n, v);
    }
  }

  /** Backends of this database other than the test's own connections. */
  const otherBackends = (own: number[]) =>
    query<{ pid: number; state: string | null; wait_event_type: string | null; in_xact: boolean }>(
      `select pid, state, wait_event_type, xact_start is not null as in_xact from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> all($1::int[])`,
      [own],
    );

  /**
   * Sends `batch` and SIGKILLs the server while the batch's transaction is open in PostgreSQL.
   * 'row lock': a project row the batch updates is locked by the test, so the batch's transaction
   * has written its new projects and waits on the lock when the kill lands (deterministic).
   * 'natural': the kill lands as soon as PostgreSQL shows the server's transaction open.
   * 'after commit': the kill lands once the batch's last new project is visible (committed);
   * its reply is discarded, as if the connection had broken first: a batch committed but never
   * acknowledged must be whole too.
   * Returns the reply should it have arrived before the kill (never for 'after commit').
   */
  async function killDuring(
    s: ServerProcess,
    batch: Batch,
    how: 'row lock' | 'natural' | 'after commit',
  ): Promise<Reply | undefined> {
    const monitorPid = (await query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
    let holder: pg.Client | undefined;
    const own = [monitorPid];
    if (how === 'row lock') {
      const target = batch.versions.find((v) => v.v > 1)!;
      holder = new pg.Client({ connectionString: fresh!.url });
      await holder.connect();
      own.push((await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
      await holder.query('begin');
      const locked = await holder.query(
        `select p.id from projects p join links l on l.project_id = p.id
         where l.type = 'CODEHOST' and l.url = $1 for update of p`,
        [target.input.links.find((l) => l.type === 'CODEHOST')!.url],
      );
      expect(locked.rowCount).toBe(1);
    }
    let settled: { reply?: Reply } | undefined;
    const request = send(s, batch).then(
      (reply) => {
        settled = { reply };
        return reply;
      },
      () => {
        settled = {};
        return undefined;
      },
    );
    try {
      await waitFor(`the batch's transaction (${how})`, async () => {
        if (how === 'after commit') {
          const url = batch.versions
            .filter((v) => v.v === 1)
            .at(-1)!
            .input.links.find((l) => l.type === 'CODEHOST')!.url;
          const rows = await query('select 1 from links where url = $1', [url]);
          if (rows.length > 0) return true;
          if (settled && settled.reply?.status !== 200)
            throw new Error(`the batch failed: ${settled.reply?.text ?? 'no reply'}`);
          return undefined;
        }
        if (settled) {
          if (how === 'row lock') throw new Error('the batch was answered while a row it updates was locked');
          return true;
        }
        const backends = await otherBackends(own);
        const open =
          how === 'row lock'
            ? backends.some((b) => b.in_xact && b.wait_event_type === 'Lock')
            : backends.some((b) => b.in_xact && b.state !== 'idle');
        return open || undefined;
      });
      await s.stop('SIGKILL');
      const reply = await request;
      return how === 'after commit' ? undefined : reply;
    } finally {
      await s.stop('SIGKILL');
      await holder?.query('rollback');
      await holder?.end();
      // The killed server's backends end once they notice the closed connection: only then is
      // the outcome of its transaction final.
      await waitFor('the killed server’s backends to end', async () =>
        (await otherBackends([monitorPid])).length === 0 ? true : undefined,
      );
    }
  }

  /** Every project as stored, by number; fails on a project that no submitted version explains. */
  async function readAll(): Promise<Map<number, { v: number; row: StoredProject }>> {
    const rows = await query<StoredProject>(
      `select p.slug, p.name, p.name_en, p.description,
         coalesce((select json_agg(json_build_object('type', l.type, 'url', l.url) order by l.position)
                   from links l where l.project_id = p.id), '[]') as links,
         coalesce((select json_agg(t.name order by pt.position)
                   from project_tags pt join tags t on t.id = pt.tag_id where pt.project_id = p.id), '[]') as tags
       from projects p`,
    );
    const byN = new Map<number, { v: number; row: StoredProject }>();
    for (const row of rows) {
      const m = row.name_en?.match(NAME_EN);
      expect(m, `a project nobody submitted: ${JSON.stringify(row)}`).toBeTruthy();
      const n = Number(m![1]);
      expect(byN.has(n), `project ${n} stored twice`).toBe(false);
      byN.set(n, { v: Number(m![2]), row });
    }
    return byN;
  }

  /**
   * After a restart: every known project is stored exactly as its last known version, or (if
   * the killed batch held a newer version of it) exactly as that version; every project of the
   * killed batch is whole or, if new, absent; nothing else is stored, and nothing is orphaned.
   * Then what the killed batch left behind becomes known.
   */
  async function checkStore(s: ServerProcess, inFlight: Version[]) {
    const orphans = await query<{ links: number; project_tags: number }>(
      `select (select count(*) from links l where not exists (select 1 from projects p where p.id = l.project_id))::int as links,
              (select count(*) from project_tags pt where not exists (select 1 from projects p where p.id = pt.project_id))::int as project_tags`,
    );
    expect(orphans).toEqual([{ links: 0, project_tags: 0 }]);
    const wrongCounts = await query(
      `select p.slug,
              (select count(*) from links l where l.project_id = p.id)::int as links,
              (select count(*) from project_tags pt where pt.project_id = p.id)::int as tags
       from projects p
       where (select count(*) from links l where l.project_id = p.id) <> 3
          or (select count(*) from project_tags pt where pt.project_id = p.id) <> 3`,
    );
    expect(wrongCounts).toEqual([]);

    const stored = await readAll();
    const pending = new Map(inFlight.map((v) => [v.n, v]));
    for (const [n, { v, row }] of stored) {
      const allowed = [known.get(n), pending.get(n)].filter((x): x is Version => x !== undefined);
      const match = allowed.find((x) => x.v === v);
      expect(
        match,
        `project ${n} is stored as version ${v}, which is neither acknowledged nor in flight`,
      ).toBeDefined();
      const { slug: _slug, ...fields } = row;
      expect(fields, `project ${n} version ${v} is not whole`).toEqual(storedShape(match!));
    }
    for (const n of known.keys()) expect(stored.has(n), `known project ${n} is missing`).toBe(true);

    // Counts: the store holds exactly the projects the acknowledged replies reported created
    // (each of them) plus the new projects of killed batches that survived whole.
    for (const v of inFlight) if (v.v === 1 && stored.has(v.n)) survivedNew.add(v.n);
    expect(acked.newProjects.size).toBe(acked.created);
    expect(new Set(stored.keys())).toEqual(new Set([...acked.newProjects, ...survivedNew]));
    expect(stored.size).toBe(acked.created + survivedNew.size);

    for (const [n, { v }] of stored) known.set(n, pending.get(n)?.v === v ? pending.get(n)! : known.get(n)!);

    // A sample through the API: a few projects of the killed batch and a few others.
    const sample = [
      ...inFlight.flatMap((v) => stored.get(v.n) ?? []).slice(0, 5),
      ...[...stored.values()].sort(() => Math.random() - 0.5).slice(0, 10),
    ];
    for (const { row } of sample) {
      const r = await s.call('GET', `/api/projects/${encodeURIComponent(row.slug)}`, { key: false });
      expect(r.status).toBe(200);
      expect({
        name: r.json.data.name,
        nameEn: r.json.data.nameEn,
        description: r.json.data.description,
        links: r.json.data.links.map((l: LinkInput) => ({ type: l.type, url: l.url })),
        tags: r.json.data.tags.map((t: TagInput) => t.name),
      }).toEqual({
        name: row.name,
        nameEn: row.name_en,
        description: row.description,
        links: row.links,
        tags: row.tags,
      });
    }
  }

  it('keeps every acknowledged batch and leaves every project whole or absent, over 4 kills', async () => {
    const env = { DATABASE_URL: fresh!.url, WEBHOOK_API_KEY: newKey(), DB_POOL_SIZE: '5' };
    let s = await start(env);
    const cycles = ['row lock', 'natural', 'after commit', 'row lock'] as const;
    for (const how of cycles) {
      for (let i = 0; i < ACKED_BATCHES_PER_CYCLE; i++) {
        const batch = makeBatch(known.size === 0 ? 0 : UPDATES_PER_BATCH);
        acknowledge(batch, await send(s, batch));
      }
      const inFlight = makeBatch();
      const reply = await killDuring(s, inFlight, how);
      if (reply) acknowledge(inFlight, reply);
      s = await start(env);
      await checkStore(s, reply ? [] : inFlight.versions);
    }

    // The restarted server writes as before, and nothing else changed meanwhile.
    const last = makeBatch();
    acknowledge(last, await send(s, last));
    await checkStore(s, []);
    expect(await s.stop('SIGTERM')).toBe(0);
    expect(s.output()).not.toContain(env.WEBHOOK_API_KEY);
  }, 900_000);
});

// ---------------------------------------------------------------------------------------------
// 2. PostgreSQL stopped and started again under a running server (a private cluster)
// ---------------------------------------------------------------------------------------------

const alive = (s: ServerProcess) => s.child.exitCode === null && s.child.signalCode === null;

/** One request that must be answered within `ms`: a hung server fails the test rather than stalling it. */
async function within(s: ServerProcess, method: string, path: string, body?: unknown, ms = 5_000) {
  const started = Date.now();
  const res = await fetch(s.baseUrl + path, {
    method,
    headers: { 'x-api-key': s.key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ms),
  }).catch(async (err) => {
    await sleep(500); // let a crashed process's exit be seen
    const state = alive(s) ? 'is still running' : `has exited (${s.child.exitCode ?? s.child.signalCode})`;
    throw new Error(
      `${method} ${path}: no answer (${err}; limit ${ms} ms); the server ${state}:\n${s.output()}`,
    );
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, ms: Date.now() - started };
}

const postgres = findPostgres();
const skipReason = !POSTGRES_URL
  ? 'TEST_DATABASE_URL is not set'
  : 'reason' in postgres
    ? postgres.reason
    : undefined;

describe.skipIf(skipReason !== undefined)(
  `a private PostgreSQL stopped and started under a running server${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: PrivateCluster | undefined;
    let server: ServerProcess | undefined;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const key = newKey();

    beforeAll(async () => {
      cluster = await createCluster(postgres as Exclude<typeof postgres, { reason: string }>);
      await cluster.start();
    }, 300_000);

    afterAll(async () => {
      await server?.stop('SIGKILL');
      await cluster?.destroy();
    }, 300_000);

    /** What the server must answer while its database is down. */
    function expectUnavailable(r: { status: number; json: any; text: string; ms: number }) {
      expect(r.status, r.text).toBeGreaterThanOrEqual(500);
      expect(r.status, r.text).toBeLessThan(600);
      expect(r.json).toEqual({
        success: false,
        error: r.status === 503 ? 'Service Unavailable' : 'Internal server error',
        details: [expect.any(String)],
      });
      // No stack, SQL, driver message, address or secret.
      expect(r.text).not.toMatch(
        /\bat .+:\d+|\.ts\b|node_modules|select |insert |update |ECONN|127\.0\.0\.1/i,
      );
      expect(r.text).not.toMatch(/terminat|shutdown|postgres/i);
      expect(r.text).not.toContain(key);
      expect(r.text).not.toContain(password);
    }

    it('answers 5xx in the envelope while PostgreSQL is down and recovers without a restart, twice', async () => {
      const c = cluster!;
      const s = await spawnServer({ DATABASE_URL: c.url(password), WEBHOOK_API_KEY: key, DB_POOL_SIZE: '4' });
      server = s;
      const p = project();
      const created = await within(s, 'POST', '/api/webhook/projects', { projects: [p] });
      expect(created.json).toMatchObject({ success: true, created: 1, failed: 0 });
      let before = await within(s, 'GET', `/api/projects/${slugOf(p)}`);
      expect(before.status).toBe(200);
      expect((await within(s, 'GET', '/healthz')).status).toBe(200);

      for (const mode of ['fast', 'immediate'] as const) {
        // Requests in flight when PostgreSQL goes, held there by a table lock the test takes: a
        // batch (its transaction open, a connection checked out of the pool) and a read.
        const holder = new pg.Client({ connectionString: c.url(password) });
        holder.on('error', () => {});
        await holder.connect();
        await holder.query('begin');
        await holder.query('lock table projects in access exclusive mode');
        const description = `In flight while PostgreSQL stops (${mode}).`;
        const inFlight = Promise.all([
          within(s, 'POST', '/api/webhook/projects', { projects: [{ ...p, description }] }, 60_000),
          within(s, 'GET', `/api/projects/${slugOf(p)}`, undefined, 60_000),
        ]);
        // Watched from another connection: within the holder's transaction pg_stat_activity is a snapshot.
        const watcher = new pg.Client({ connectionString: c.url(password) });
        await watcher.connect();
        await waitFor('the in-flight requests to wait on the lock', async () => {
          const r = await watcher.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock'`);
          return r.rowCount === 2 ? true : undefined;
        });
        await watcher.end();

        await c.stop(mode);
        const stoppedAt = Date.now();
        await holder.end().catch(() => {});
        const [batch, reading] = await inFlight;
        expect(Date.now() - stoppedAt).toBeLessThan(5_000);
        // Usually both fail; either may still have finished if PostgreSQL ran it before its
        // backend got the shutdown signal (the lock holder's backend may die first).
        if (batch.status === 200) expect(batch.json).toMatchObject({ success: true, updated: 1, failed: 0 });
        else expectUnavailable(batch);
        if (reading.status === 200) expect(reading.json).toEqual(before.json);
        else expectUnavailable(reading);

        const [cached, ...down] = await Promise.all([
          within(s, 'GET', `/api/projects/${slugOf(p)}`),
          within(s, 'POST', '/api/webhook/projects', { projects: [project()] }),
          within(s, 'GET', `/api/discovery/tasks?limit=5`),
          within(s, 'POST', '/api/discovery/tasks', { tasks: [{ sourceUrl: uniqueUrl('down') }] }),
        ]);
        for (const r of down) expectUnavailable(r);
        // the read model serves a project it holds without the database
        // (docs/search.md#how-it-is-served-a-read-model-in-every-process)
        if (cached!.status === 200) expect(cached!.json).toEqual(before.json);
        else expectUnavailable(cached!);
        const health = await within(s, 'GET', '/healthz');
        expect(health.status).toBe(503);
        expect(health.json).toEqual({
          success: false,
          error: 'Service Unavailable',
          details: ['The database is not reachable'],
        });
        expect(alive(s)).toBe(true);

        await c.start();
        const restartedAt = Date.now();
        await waitFor(
          '/healthz to answer 200 again',
          async () => ((await within(s, 'GET', '/healthz')).status === 200 ? true : undefined),
          30_000,
        );
        expect(Date.now() - restartedAt).toBeLessThan(30_000);

        const after = await within(s, 'GET', `/api/projects/${slugOf(p)}`);
        expect(after.status).toBe(200);
        // The in-flight update was rolled back with its transaction (unless it committed: then
        // it is there whole).
        if (batch.status === 200 || after.json.data.description === description) {
          const { description: _d, updatedAt: _u, ...unchanged } = after.json.data;
          const { description: _bd, updatedAt: _bu, ...previous } = before.json.data;
          expect(unchanged).toEqual(previous);
          expect(after.json.data.description).toBe(description);
        } else {
          expect(after.json).toEqual(before.json);
        }
        before = after;
        const q = project();
        const write = await within(s, 'POST', '/api/webhook/projects', { projects: [q] });
        expect(write.json).toEqual({
          success: true,
          processed: 1,
          created: 1,
          updated: 0,
          failed: 0,
          errors: [],
          results: [expect.objectContaining({ index: 0, action: 'created', slug: slugOf(q) })],
        });
        const read = await within(s, 'GET', `/api/projects/${slugOf(q)}`);
        expect(read.status).toBe(200);
        expect(read.json.data.links.map((l: LinkInput) => l.url)).toEqual(q.links.map((l) => l.url));
        expect(alive(s)).toBe(true);
      }

      expect(await s.stop('SIGTERM')).toBe(0);
      const out = s.output();
      expect(out).not.toContain(key);
      expect(out).not.toContain(password);
      expect(out).toMatch(/"msg":"health check failed"/);
      expect(out).not.toMatch(/\n\s+at /);
    }, 600_000);
  },
);
