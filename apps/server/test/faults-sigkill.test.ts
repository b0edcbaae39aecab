import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACKED_BATCHES_PER_CYCLE,
  BATCH,
  type Batch,
  type LinkInput,
  newKey,
  readAll,
  type StoredProject,
  storedShape,
  type TagInput,
  UPDATES_PER_BATCH,
  type Version,
  version,
  waitFor,
} from './faults-helpers.ts';
import {
  freshPostgresDatabase,
  POSTGRES_URL,
  type Reply,
  type ServerProcess,
  spawnServer,
} from './helpers.ts';

/**
 * A fault the server must survive (docs/operating.md#several-processes-crashes-and-outages): the
 * server process killed with SIGKILL in the middle of a stream of batch upserts. Runs only when
 * TEST_DATABASE_URL is set, like the other PostgreSQL tests. PostgreSQL stopped under a running
 * server: faults-postgres-stopped.test.ts.
 */
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

    const stored = await readAll((text) => query<StoredProject>(text));
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
