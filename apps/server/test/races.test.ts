import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES_URL, project, slugOf, spawnServer, uniqueUrl } from './helpers.ts';
import { N, useRacingServers } from './races-servers.ts';
import { urlKeyRaces } from './races-url-keys.ts';

/**
 * Races between two server processes on one PostgreSQL database: what one process cannot
 * serialise in memory, the database (advisory locks, unique constraints, conditional updates)
 * must. Every race fires N requests at once, alternating between the two processes.
 * The processes and the races' helpers are races-servers.ts; the races on url keys are
 * races-url-keys.ts, registered here on the same processes.
 */

describe.skipIf(!POSTGRES_URL)('races between two server processes on one PostgreSQL', () => {
  const c = useRacingServers();
  const { race, query, sum, statuses, upsert, createTask } = c;

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
    const { servers } = c;
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
    const { servers } = c;
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

  urlKeyRaces(c);

  it('a merge whose process is killed midway leaves everything as it was (one transaction)', async () => {
    const { fresh, servers } = c;
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
