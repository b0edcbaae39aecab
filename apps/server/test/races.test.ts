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

/**
 * Races between two server processes on one PostgreSQL database: what one process cannot
 * serialise in memory, the database (advisory locks, unique constraints, conditional updates)
 * must. Every race fires N requests at once, alternating between the two processes.
 */
const N = 12;

describe.skipIf(!POSTGRES_URL)('races between two server processes on one PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  let servers: ServerProcess[] = [];
  let sql: pg.Client | undefined;

  beforeAll(async () => {
    fresh = await freshPostgresDatabase();
    const env = {
      DATABASE_URL: fresh.url,
      WEBHOOK_API_KEY: `race-key-${randomBytes(8).toString('hex')}`,
      DB_POOL_SIZE: '10',
    };
    // Both start at once on an empty database: the migrations race too.
    const started = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    sql = new pg.Client({ connectionString: fresh.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
    await fresh?.drop();
  });

  /** N requests at once, request i on process i % 2. */
  function race(request: (s: ServerProcess, i: number) => Promise<Reply>): Promise<Reply[]> {
    return Promise.all(Array.from({ length: N }, (_, i) => request(servers[i % 2]!, i)));
  }
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await sql!.query<R>(text, values)).rows;
  const sum = (replies: Reply[], field: string) =>
    replies.reduce((n, r) => n + (r.json?.[field] as number), 0);
  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort((a, b) => a - b);
  const upsert = (s: ServerProcess, projects: unknown[]) =>
    s.call('POST', '/api/webhook/projects', { body: { projects } });

  async function createTask(): Promise<string> {
    const sourceUrl = uniqueUrl('task');
    const r = await servers[0]!.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl }] } });
    expect(r.json).toMatchObject({ created: 1 });
    const rows = await query<{ id: string }>('select id from discovery_tasks where source_url = $1', [
      sourceUrl,
    ]);
    return rows[0]!.id;
  }

  /** Race (a): N upserts of one new project; returns nothing, asserts everything. */
  async function raceOneNewProject() {
    const p = project();
    const replies = await race((s) => upsert(s, [p]));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ success: true, processed: 1, failed: 0, errors: [] });
    }
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'updated')).toBe(N - 1);

    const projects = await query<{ id: string }>('select id from projects where slug = $1', [slugOf(p)]);
    expect(projects).toHaveLength(1);
    const urls = p.links.map((l) => l.url);
    const links = await query<{ project_id: string; url: string; n: number }>(
      'select project_id, url, count(*)::int as n from links where url = any($1::text[]) group by project_id, url order by url',
      [urls],
    );
    expect(links).toEqual([...urls].sort().map((url) => ({ project_id: projects[0]!.id, url, n: 1 })));
  }

  it('makes N concurrent upserts of one new project create it once; the others update it', async () => {
    await raceOneNewProject();
  });

  it('holds over several rounds of the same race', async () => {
    for (let round = 0; round < 5; round++) await raceOneNewProject();
  });

  it('identifies a new project by its CODEHOST url even when the racing inputs differ in name', async () => {
    // Different names give different slugs, so no unique constraint can catch a duplicate here:
    // only the serialisation of the identity lookup keeps this to one project.
    const base = project();
    const inputs = Array.from({ length: N }, (_, i) => ({ ...base, nameEn: `${base.nameEn} variant ${i}` }));
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    for (const r of replies) expect(r.json).toMatchObject({ success: true, processed: 1, failed: 0 });
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'updated')).toBe(N - 1);
    const holders = await query<{ project_id: string }>(
      'select distinct project_id from links where url = $1',
      [base.links[0]!.url],
    );
    expect(holders).toHaveLength(1);
    const slugs = await query<{ slug: string }>('select slug from projects where slug = any($1::text[])', [
      inputs.map(slugOf),
    ]);
    expect(slugs).toHaveLength(1);
  });

  it('makes N concurrent upserts of different projects sharing one new tag create the tag once', async () => {
    const tagName = `race tag ${randomBytes(6).toString('hex')}`;
    const inputs = Array.from({ length: N }, () => project({ tags: [{ name: tagName }] }));
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ success: true, processed: 1, created: 1, updated: 0, failed: 0 });
    }
    const tags = await query<{ id: string }>('select id from tags where name = $1', [tagName]);
    expect(tags).toHaveLength(1);
    const refs = await query<{ slug: string; tag_id: string }>(
      `select p.slug, pt.tag_id from projects p join project_tags pt on pt.project_id = p.id
       where p.slug = any($1::text[])`,
      [inputs.map(slugOf)],
    );
    expect(refs).toHaveLength(N);
    expect(new Set(refs.map((r) => r.tag_id))).toEqual(new Set([tags[0]!.id]));
  });

  it('makes N concurrent creates of one sourceUrl create one task', async () => {
    const sourceUrl = uniqueUrl('source');
    const replies = await race((s) =>
      s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl }] } }),
    );
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ success: true, total: 1 });
    }
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'skipped')).toBe(N - 1);
    const rows = await query<{ n: number }>(
      'select count(*)::int as n from discovery_tasks where source_url = $1',
      [sourceUrl],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('lets exactly one of N concurrent claims move a PENDING task to IN_PROGRESS', async () => {
    const id = await createTask();
    const replies = await race((s) =>
      s.call('PATCH', `/api/discovery/tasks/${id}`, { body: { status: 'IN_PROGRESS' } }),
    );
    expect(statuses(replies)).toEqual([200, ...Array(N - 1).fill(409)]);
    for (const r of replies.filter((r) => r.status === 409)) {
      expect(r.json).toEqual({
        success: false,
        error: 'Conflict',
        details: ['Cannot change task status from IN_PROGRESS to IN_PROGRESS'],
      });
    }
    const winner = replies.find((r) => r.status === 200)!;
    expect(winner.json.task).toMatchObject({ id, status: 'IN_PROGRESS' });
    const task = await servers[1]!.call('GET', `/api/discovery/tasks/${id}`, { key: false });
    expect(task.json.task).toMatchObject({ status: 'IN_PROGRESS', startedAt: winner.json.task.startedAt });
  });

  it('lets exactly one of N concurrent completes win; the losers write no project', async () => {
    const id = await createTask();
    const claim = await servers[0]!.call('PATCH', `/api/discovery/tasks/${id}`, {
      body: { status: 'IN_PROGRESS' },
    });
    expect(claim.status).toBe(200);
    const inputs = Array.from({ length: N }, () => project());
    const replies = await race((s, i) =>
      s.call('POST', `/api/discovery/tasks/${id}/complete`, { body: { explorationData: inputs[i] } }),
    );
    expect(statuses(replies)).toEqual([200, ...Array(N - 1).fill(409)]);
    for (const r of replies.filter((r) => r.status === 409)) {
      expect(r.json).toEqual({
        success: false,
        error: 'Conflict',
        details: ['Cannot change task status from COMPLETED to COMPLETED'],
      });
    }
    const winner = replies.find((r) => r.status === 200)!;
    expect(winner.json).toMatchObject({ success: true, taskId: id, action: 'created' });
    const projectId = winner.json.projectId as string;

    const task = await servers[1]!.call('GET', `/api/discovery/tasks/${id}`, { key: false });
    expect(task.json.task).toMatchObject({ status: 'COMPLETED', projectId });

    const reads = await Promise.all(
      inputs.map((p, i) =>
        servers[i % 2]!.call('GET', `/api/projects/${encodeURIComponent(slugOf(p))}`, { key: false }),
      ),
    );
    expect(statuses(reads)).toEqual([200, ...Array(N - 1).fill(404)]);
    expect(reads.find((r) => r.status === 200)!.json.data.id).toBe(projectId);
  });

  /**
   * Twelve spellings of one GitHub repository (docs/curation.md#same-project-other-spelling): one url key.
   */
  function spellings(owner: string, repo: string): string[] {
    const escaped = `%${owner.charCodeAt(0).toString(16).toUpperCase()}${owner.slice(1)}`;
    return [
      `https://github.com/${owner}/${repo}`,
      `http://github.com/${owner.toLowerCase()}/${repo.toLowerCase()}.git`,
      `https://www.github.com/${owner}/${repo}/tree/main`,
      `https://github.com/${owner}/${repo}/`,
      `https://GitHub.com/${owner}/${repo}#readme`,
      `https://github.com/${owner}/${repo}?utm_source=feed`,
      `https://github.com:443/${owner}/${repo}`,
      `https://github.com/${owner}/${repo}/blob/main/README.md`,
      `https://github.com/${owner}/${repo}/issues`,
      `http://www.github.com/${owner.toUpperCase()}/${repo.toUpperCase()}`,
      `https://github.com/${owner}/${repo}.git/`,
      `https://github.com/${escaped}/${repo}`,
    ];
  }

  it('makes twelve spellings of one repository, upserted at once by two processes, one project', async () => {
    const owner = `QwenLM${randomBytes(4).toString('hex')}`;
    const urls = spellings(owner, 'Qwen');
    expect(new Set(urls).size).toBe(N);
    // Different names too: no slug ties them, only the url key does.
    const inputs = urls.map((url, i) =>
      project({ nameEn: `Qwen ${owner} spelling ${i}`, links: [{ type: 'CODEHOST', url }] }),
    );
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    for (const r of replies) expect(r.json).toMatchObject({ success: true, processed: 1, failed: 0 });
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'updated')).toBe(N - 1);
    const holders = await query<{ project_id: string; url_key: string; n: number }>(
      'select project_id, url_key, count(*)::int as n from links where url = any($1::text[]) group by 1, 2',
      [urls],
    );
    expect(holders).toEqual([
      { project_id: expect.any(String), url_key: `github.com/${owner.toLowerCase()}/qwen`, n: 1 },
    ]);
    const projects = await query('select id from projects where slug = any($1::text[])', [
      inputs.map(slugOf),
    ]);
    expect(projects).toHaveLength(1);
  });

  it('makes twelve spellings of one task url, created at once by two processes, one task', async () => {
    const urls = spellings(`Task${randomBytes(4).toString('hex')}`, 'Repo');
    const replies = await race((s, i) =>
      s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: urls[i] }] } }),
    );
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'skipped')).toBe(N - 1);
    const rows = await query('select id from discovery_tasks where source_url = any($1::text[])', [urls]);
    expect(rows).toHaveLength(1);
  });

  it('keeps repositories whose paths differ only by case apart on a case-sensitive host', async () => {
    const base = `https://git.example.org/${randomBytes(4).toString('hex')}`;
    const inputs = Array.from({ length: N }, (_, i) =>
      project({
        links: [{ type: 'CODEHOST', url: i % 2 === 0 ? `${base}/Models/Foo` : `${base}/models/foo` }],
      }),
    );
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    expect(sum(replies, 'created')).toBe(2);
    const holders = await query<{ url: string }>(
      'select distinct project_id, url from links where url = any($1::text[]) order by url',
      [[`${base}/Models/Foo`, `${base}/models/foo`]],
    );
    expect(holders.map((h) => h.url)).toEqual([`${base}/Models/Foo`, `${base}/models/foo`]);
    expect(new Set(holders.map((h) => (h as unknown as { project_id: string }).project_id)).size).toBe(2);
  });

  it('a merge whose process is killed midway leaves everything as it was (one transaction)', async () => {
    const [from, into] = [project(), project()];
    await upsert(servers[0]!, [from, into]);
    const [source] = await query<{ id: string }>('select id from projects where slug = $1', [slugOf(from)]);
    const taskUrl = uniqueUrl('merge-kill');
    await servers[0]!.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: taskUrl }] } });
    await query('update discovery_tasks set project_id = $1 where source_url = $2', [source!.id, taskUrl]);
    const snapshot = () =>
      query(
        `select (select json_agg(l order by l.id) from links l where l.project_id = $1) as links,
           (select count(*)::int from project_aliases where slug = $2) as aliases,
           (select count(*)::int from changes where type = 'project.merged' and project_id = $1) as merged,
           (select project_id from discovery_tasks where source_url = $3) as task_project`,
        [source!.id, slugOf(from), taskUrl],
      );
    const before = await snapshot();

    // Another transaction holds the task's row: the merge stops midway in its statement, with
    // its locks taken and its first rows written, until the process is killed.
    const holder = new pg.Client({ connectionString: fresh!.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select 1 from discovery_tasks where source_url = $1 for update', [taskUrl]);
    const victim = await spawnServer({
      DATABASE_URL: fresh!.url,
      WEBHOOK_API_KEY: servers[0]!.key,
      DB_POOL_SIZE: '2',
    });
    const pending = victim
      .call('POST', `/api/projects/${slugOf(from)}/merge`, { body: { into: slugOf(into) } })
      .catch(() => undefined);
    for (let i = 0; i < 200; i++) {
      const waiting = await query(
        `select left(query, 60) as query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (waiting.length) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [blocked] = await query<{ query: string }>(
      `select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    expect(blocked?.query).toContain('link_moves'); // the merge's statement
    await victim.stop('SIGKILL');
    await pending;
    await holder.query('rollback');
    await holder.end();
    // The killed process's transaction never commits: PostgreSQL rolls it back.
    for (let i = 0; i < 100; i++) {
      const open = await query(
        `select 1 from pg_stat_activity where query like '%project_aliases%' and state <> 'idle'`,
      );
      if (open.length <= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await snapshot()).toEqual(before);
    const alive = await servers[0]!.call('GET', `/api/projects/${slugOf(from)}`, { key: false });
    expect(alive.status).toBe(200);
    // and the merge can then be done, whole
    const done = await servers[1]!.call('POST', `/api/projects/${slugOf(from)}/merge`, {
      body: { into: slugOf(into) },
    });
    expect(done.status).toBe(200);
  });
});
