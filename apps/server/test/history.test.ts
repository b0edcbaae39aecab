import { randomBytes } from 'node:crypto';
import { pruneRevisions, sql } from '@directory/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  type ServerProcess,
  slugOf,
  spawnServer,
  targets,
  useServer,
} from './helpers.ts';

/** Revisions, revert, restore, locks (docs/curation.md#history-revert-locks-and-restore). */
describe.each(targets)('history on $name', (target) => {
  const s = useServer(target, {}, 120_000);

  const upsert = async (projects: unknown[], headers: Record<string, string> = {}) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects }, headers });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const get = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}`);
    expect(r.status, r.text).toBe(200);
    return r.json.data;
  };
  const revisions = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}/revisions?limit=100`);
    expect(r.status, r.text).toBe(200);
    return r.json.revisions as { revision: number; action: string; via: string; actor: string | null }[];
  };
  /** Every revision row of a project, oldest first, straight from the table. */
  const stored = async (projectId: string) =>
    (
      await sql<{ revision: number; action: string; via: string; task_id: string | null }>`
        select revision, action, via, task_id from project_revisions where project_id = ${projectId} order by revision
      `.execute(s.db.db)
    ).rows;
  const withoutUpdatedAt = ({ updatedAt: _, ...rest }: Record<string, unknown>) => rest;

  it('every write path stores exactly one revision; an unchanged update none', async () => {
    const p = project({ source: 'import' });
    const slug = slugOf(p);
    const created = await upsert([p], { 'x-directory-actor': 'alice' });
    const id = created.results[0].id as string;
    expect(await stored(id)).toEqual([{ revision: 1, action: 'created', via: 'upsert', task_id: null }]);

    await upsert([p]); // the same again: nothing changed
    expect(await stored(id)).toHaveLength(1);

    await upsert([{ ...p, description: 'A changed description here.' }]);
    expect((await stored(id)).map((r) => [r.revision, r.action, r.via])).toEqual([
      [1, 'created', 'upsert'],
      [2, 'updated', 'upsert'],
    ]);

    // complete
    const task = await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: [{ sourceUrl: p.links[0]!.url }] },
    });
    expect(task.status, task.text).toBe(200);
    const taskId = (
      await s
        .call('GET', `/api/discovery/tasks?limit=100`)
        .then((r) => r.json.tasks as { id: string; sourceUrl: string }[])
    ).find((t) => t.sourceUrl === p.links[0]!.url)!.id;
    const done = await s.call('POST', `/api/discovery/tasks/${taskId}/complete`, {
      body: { explorationData: { ...p, description: 'Written by the crawler.' } },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json.kept).toBeUndefined();
    expect((await stored(id)).at(-1)).toEqual({
      revision: 3,
      action: 'updated',
      via: 'complete',
      task_id: taskId,
    });

    // lock, unlock (and again: no change, no revision)
    expect(
      (await s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: ['name'] } })).json.revision,
    ).toBe(4);
    expect(
      (await s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: ['name'] } })).json.revision,
    ).toBe(null);
    expect((await s.call('DELETE', `/api/projects/${slug}/lock`)).json.revision).toBe(5);
    expect((await s.call('DELETE', `/api/projects/${slug}/lock`)).json.revision).toBe(null);

    // revert
    const reverted = await s.call('POST', `/api/projects/${slug}/revert`, { body: { revision: 1 } });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.json.revision).toBe(6);
    // reverting to what it already is changes nothing
    expect(
      (await s.call('POST', `/api/projects/${slug}/revert`, { body: { revision: 1 } })).json.revision,
    ).toBe(null);

    // merge: the source's last revision is its delete, the target gets one update
    const other = project();
    const otherId = (await upsert([other])).results[0].id as string;
    const merged = await s.call('POST', `/api/projects/${slugOf(other)}/merge`, { body: { into: slug } });
    expect(merged.status, merged.text).toBe(200);
    expect((await stored(otherId)).map((r) => [r.revision, r.action, r.via])).toEqual([
      [1, 'created', 'upsert'],
      [2, 'deleted', 'merge'],
    ]);
    expect((await stored(id)).at(-1)).toMatchObject({ revision: 7, action: 'updated', via: 'merge' });

    // delete, restore
    expect((await s.call('DELETE', `/api/projects/${slug}`)).status).toBe(200);
    expect((await stored(id)).at(-1)).toMatchObject({ revision: 8, action: 'deleted', via: 'delete' });
    const restored = await s.call('POST', `/api/projects/deleted/${id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect((await stored(id)).at(-1)).toMatchObject({ revision: 9, action: 'created', via: 'restore' });

    const listed = await revisions(slug);
    expect(listed.map((r) => r.revision)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(listed.at(-1)).toMatchObject({ actor: 'alice' });
  });

  it('a rolled-back write leaves no revision (and no project, no change)', async () => {
    // The revision is the last statement of an upsert: failing it must undo the project too.
    await sql`alter table project_revisions add constraint history_test_fail check (name <> 'ROLLBACK ME')`.execute(
      s.db.db,
    );
    try {
      const p = project({ name: 'ROLLBACK ME' });
      const r = await upsert([p]);
      expect(r.failed).toBe(1);
      const rows = await sql<{ n: number }>`
        select (select count(*) from projects where name = 'ROLLBACK ME')::int
          + (select count(*) from project_revisions where name = 'ROLLBACK ME')::int
          + (select count(*) from changes where slug = ${slugOf(p)})::int as n
      `.execute(s.db.db);
      expect(rows.rows[0]!.n).toBe(0);
    } finally {
      await sql`alter table project_revisions drop constraint history_test_fail`.execute(s.db.db);
    }

    // A write that fails after its revision (a complete whose task update fails) keeps none either.
    const p = project();
    const id = (await upsert([p])).results[0].id as string;
    const url = `${p.links[0]!.url}/rollback`;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    await sql
      .raw(`
        create function history_test_fail() returns trigger language plpgsql as $$
        begin if new.status = 'COMPLETED' and new.source_url like '%/rollback' then raise exception 'no'; end if; return new; end $$;
        create trigger history_test_fail before update on discovery_tasks for each row execute function history_test_fail();
      `)
      .execute(s.db.db);
    try {
      const task = (
        await sql<{ id: string }>`select id from discovery_tasks where source_url = ${url}`.execute(s.db.db)
      ).rows[0]!;
      const done = await s.call('POST', `/api/discovery/tasks/${task.id}/complete`, {
        body: { explorationData: { ...p, description: 'This update must not be kept.' } },
      });
      expect(done.status).toBe(500);
      expect(await stored(id)).toHaveLength(1);
      expect((await get(slugOf(p))).description).toBe(p.description);
    } finally {
      await sql
        .raw('drop trigger history_test_fail on discovery_tasks; drop function history_test_fail();')
        .execute(s.db.db);
    }
  });

  it('revert and restore give back the exact earlier project (endpoint 2 bodies)', async () => {
    // imported with care: Chinese and English names, tags, four links
    const careful = project({
      name: '通义千问',
      nameEn: `Qwen ${randomBytes(3).toString('hex')}`,
      description: '阿里云通义团队推出的大语言模型系列，开放权重。',
      descriptionEn: "Alibaba Cloud's Qwen family of large language models.",
      content: '## 亮点\n- 长上下文',
      contentEn: '## Highlights\n- Long context',
      source: 'import',
      tags: [
        { name: '大语言模型', nameEn: 'LLM' },
        { name: '开源', nameEn: 'Open Source' },
      ],
    });
    careful.links = [
      ...careful.links,
      { type: 'MODELHUB', url: `https://huggingface.co/${careful.nameEn.replace(' ', '-')}`, title: 'HF' },
      { type: 'PAPER', url: `https://arxiv.org/abs/2309.${Math.floor(Math.random() * 90000) + 10000}` },
    ] as typeof careful.links;
    const slug = (await upsert([careful])).results[0].slug as string;
    const before = await get(slug);

    // a crawler's thin result replaces it (an update replaces)
    const thin = {
      name: 'qwen',
      description: 'A crawler wrote this one.',
      source: 'crawler',
      tags: [{ name: 'AI' }],
      links: [careful.links[0]],
    };
    await upsert([thin]);
    expect((await get(slug)).tags.map((t: { name: string }) => t.name)).toEqual(['AI']);

    const diff = await s.call('GET', `/api/projects/${slug}/revisions/2/diff`);
    expect(diff.status, diff.text).toBe(200);
    expect(diff.json.changed.name).toEqual({ from: '通义千问', to: 'qwen' });
    expect(diff.json.tags.removed.map((t: { name: string }) => t.name)).toEqual(['大语言模型', '开源']);
    expect(diff.json.links.removed).toHaveLength(3);

    const reverted = await s.call('POST', `/api/projects/${slug}/revert`, {
      body: { revision: 1 },
      headers: { 'x-directory-actor': '%E5%BC%A0%E4%B8%89' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect(withoutUpdatedAt(await get(slug))).toEqual(withoutUpdatedAt(before));
    expect((await revisions(slug))[0]).toMatchObject({ via: 'revert', actor: '张三' });

    // delete, then restore: the same project again, ids and creation time included
    const locked = await s.call('PUT', `/api/projects/${slug}/lock`, {
      body: { fields: ['tags'], reason: '审校' },
    });
    const withLock = locked.json.data;
    expect((await s.call('DELETE', `/api/projects/${slug}`)).status).toBe(200);
    expect((await s.call('GET', `/api/projects/${slug}`)).status).toBe(404);
    const deleted = await s.call('GET', '/api/projects/deleted?limit=100');
    expect(deleted.json.projects.find((d: { slug: string }) => d.slug === slug)).toMatchObject({
      id: before.id,
      via: 'delete',
    });
    // a deleted project's history is still read by its slug
    expect((await revisions(slug))[0]).toMatchObject({ action: 'deleted', via: 'delete' });
    const restored = await s.call('POST', `/api/projects/deleted/${before.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(withoutUpdatedAt(await get(slug))).toEqual(withoutUpdatedAt(withLock));
    expect(
      (await s.call('GET', '/api/projects/deleted?limit=100')).json.projects.map((d: { id: string }) => d.id),
    ).not.toContain(before.id);
  });

  it('a restore whose slug or link is taken is 409; a revert to a link now elsewhere is 409 naming it', async () => {
    const p = project();
    const id = (await upsert([p])).results[0].id as string;
    expect((await s.call('DELETE', `/api/projects/${slugOf(p)}`)).status).toBe(200);
    const taker = { ...project(), links: [p.links[0]] };
    const takerSlug = (await upsert([taker])).results[0].slug as string;
    const r = await s.call('POST', `/api/projects/deleted/${id}/restore`);
    expect(r.status).toBe(409);
    expect(r.json.details[0]).toContain(`now belongs to project "${takerSlug}"`);

    const q = project();
    const qSlug = (await upsert([q])).results[0].slug as string;
    await upsert([{ ...q, links: [q.links[1]] }]); // its CODEHOST link dropped
    await upsert([{ ...project(), links: [q.links[0]] }]); // … and taken by another project
    const revert = await s.call('POST', `/api/projects/${qSlug}/revert`, { body: { revision: 1 } });
    expect(revert.status).toBe(409);
    expect(revert.json.details[0]).toMatch(/^links\.0\.url: The url ".*" now belongs to project "/);
    expect((await s.call('POST', `/api/projects/${qSlug}/revert`, { body: { revision: 9 } })).status).toBe(
      404,
    );
  });

  it('a locked field survives an upsert and a complete; unlocked fields are replaced', async () => {
    const p = project({ nameEn: `Locked ${randomBytes(3).toString('hex')}`, content: '人工整理的内容' });
    const slug = (await upsert([p])).results[0].slug as string;
    const lock = await s.call('PUT', `/api/projects/${slug}/lock`, {
      body: { fields: ['name', 'content', 'tags', 'links'], reason: 'curated' },
    });
    expect(lock.status, lock.text).toBe(200);
    expect(lock.json.data.lock).toMatchObject({
      fields: ['name', 'content', 'tags', 'links'],
      reason: 'curated',
    });
    const before = await get(slug);

    const crawler = {
      ...p,
      name: 'crawled name',
      description: 'A crawler wrote this one.',
      content: undefined,
      tags: [{ name: 'crawled' }],
      links: [p.links[0]], // identity: the same repository
    };
    const r = await upsert([crawler]);
    expect(r.results[0]).toMatchObject({
      action: 'updated',
      slug,
      kept: ['name', 'content', 'tags', 'links'],
    });
    const after = await get(slug);
    expect(after.name).toBe(before.name);
    expect(after.content).toBe('人工整理的内容');
    expect(after.tags).toEqual(before.tags);
    expect(after.links).toEqual(before.links);
    expect(after.description).toBe('A crawler wrote this one.'); // not locked: replaced
    expect(after.nameEn).toBe(p.nameEn);

    // a complete, likewise
    await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: [{ sourceUrl: `${p.links[0]!.url}/tree/main` }] },
    });
    const task = (
      await sql<{
        id: string;
      }>`select id from discovery_tasks where source_url = ${`${p.links[0]!.url}/tree/main`}`.execute(s.db.db)
    ).rows[0];
    const done = await s.call('POST', `/api/discovery/tasks/${task!.id}/complete`, {
      body: { explorationData: { ...crawler, status: 'ARCHIVED', description: 'Completed by the crawler.' } },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ slug, action: 'updated', kept: ['name', 'content', 'tags', 'links'] });
    const completed = await get(slug);
    expect(completed).toMatchObject({ name: before.name, content: '人工整理的内容', status: 'ARCHIVED' });
    expect(completed.tags).toEqual(before.tags);

    // "*" locks everything; unlocking lets the next upsert replace it all
    await s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: '*' } });
    const all = await upsert([crawler]);
    expect(all.results[0].kept).toEqual([
      'name',
      'nameEn',
      'description',
      'descriptionEn',
      'content',
      'contentEn',
      'status',
      'tags',
      'links',
    ]);
    expect((await get(slug)).description).toBe('Completed by the crawler.');
    await s.call('DELETE', `/api/projects/${slug}/lock`);
    const free = await upsert([crawler]);
    expect(free.results[0].kept).toBeUndefined();
    expect(await get(slug)).toMatchObject({ name: 'crawled name', content: null, lock: null });
  });

  it('X-Directory-Actor: recorded, percent-decoded; too long is 400, nothing written', async () => {
    const p = project();
    const long = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [p] },
      headers: { 'x-directory-actor': 'x'.repeat(101) },
    });
    expect(long.status).toBe(400);
    expect(long.json.details).toEqual(['header X-Directory-Actor: Must be at most 100 characters']);
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
    await upsert([p], { 'x-directory-actor': '  editor:bob  ' });
    expect((await revisions(slugOf(p)))[0]!.actor).toBe('editor:bob');
  });

  it('pages revisions newest first by cursor; client mistakes are 400/404, never 500', async () => {
    const p = project();
    const slug = (await upsert([p])).results[0].slug as string;
    for (let i = 0; i < 4; i++) await upsert([{ ...p, description: `Description number ${i} here.` }]);
    const first = await s.call('GET', `/api/projects/${slug}/revisions?limit=2`);
    expect(first.json.revisions.map((r: { revision: number }) => r.revision)).toEqual([5, 4]);
    const second = await s.call(
      'GET',
      `/api/projects/${slug}/revisions?limit=2&cursor=${first.json.nextCursor}`,
    );
    expect(second.json.revisions.map((r: { revision: number }) => r.revision)).toEqual([3, 2]);
    const third = await s.call(
      'GET',
      `/api/projects/${slug}/revisions?limit=2&cursor=${second.json.nextCursor}`,
    );
    expect(third.json).toMatchObject({ nextCursor: null });
    expect(third.json.revisions.map((r: { revision: number }) => r.revision)).toEqual([1]);
    const other = (await upsert([project()])).results[0].slug as string;
    const foreign = await s.call('GET', `/api/projects/${other}/revisions?cursor=${first.json.nextCursor}`);
    expect(foreign.status).toBe(400);
    for (const [path, status] of [
      [`/api/projects/${slug}/revisions/0`, 400],
      [`/api/projects/${slug}/revisions/1.5`, 400],
      [`/api/projects/${slug}/revisions/99999999999`, 400],
      [`/api/projects/${slug}/revisions/6`, 404],
      [`/api/projects/${slug}/revisions/3/diff?against=x`, 400],
      [`/api/projects/${slug}/revisions/3/diff?against=77`, 404],
      ['/api/projects/deleted?limit=101', 400],
    ] as const) {
      const r = await s.call('GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(status);
    }
    const one = await s.call('GET', `/api/projects/${slug}/revisions/1/diff`);
    expect(one.json).toMatchObject({ revision: 1, against: null });
    expect(one.json.changed.name).toEqual({ from: null, to: p.name });
    const back = await s.call('GET', `/api/projects/${slug}/revisions/1/diff?against=5`);
    expect(back.json.changed.description).toEqual({ from: 'Description number 3 here.', to: p.description });
    expect((await s.call('POST', '/api/projects/deleted/nope/restore')).status).toBe(404);
    expect((await s.call('POST', `/api/projects/${slug}/revert`, { body: { revision: '1' } })).status).toBe(
      400,
    );
    expect((await s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: [] } })).status).toBe(400);
  });

  it("retention: the newest REVISIONS_KEEP per project; a deleted project's all, REVISIONS_DELETED_DAYS after its delete", async () => {
    const p = project();
    const slug = (await upsert([p])).results[0].slug as string;
    for (let i = 0; i < 5; i++) await upsert([{ ...p, description: `Pruned description ${i}.` }]);
    const gone = project();
    const goneId = (await upsert([gone])).results[0].id as string;
    await s.call('DELETE', `/api/projects/${slugOf(gone)}`);
    const recent = project();
    const recentId = (await upsert([recent])).results[0].id as string;
    await s.call('DELETE', `/api/projects/${slugOf(recent)}`);
    await sql`update project_revisions set at = at - interval '91 days' where project_id = ${goneId}`.execute(
      s.db.db,
    );

    await pruneRevisions(s.db.db, 3, 90);
    expect((await revisions(slug)).map((r) => r.revision)).toEqual([6, 5, 4]);
    expect(await stored(goneId)).toEqual([]);
    expect((await stored(recentId)).map((r) => r.action)).toEqual(['created', 'deleted']);
    const deleted = (await s.call('GET', '/api/projects/deleted?limit=100')).json.projects.map(
      (d: { id: string }) => d.id,
    );
    expect(deleted).toContain(recentId);
    expect(deleted).not.toContain(goneId);
    // numbering goes on after the pruned ones
    await upsert([{ ...p, description: 'After the pruning, once more.' }]);
    expect((await revisions(slug)).map((r) => r.revision)).toEqual([7, 6, 5, 4]);
  });

  it('concurrent upserts of one project: revisions 1..n without gaps or repeats', async () => {
    const p = project();
    const slug = (await upsert([p])).results[0].slug as string;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsert([{ ...p, description: `Concurrent write number ${i}.` }])),
    );
    const numbers = (await revisions(slug)).map((r) => r.revision).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.length).toBeGreaterThan(1);
  });
});

describe.skipIf(!POSTGRES_URL)('history across two server processes on PostgreSQL', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const env = { DATABASE_URL: database.url, WEBHOOK_API_KEY: key };
    a = await spawnServer(env); // migrates first
    b = await spawnServer(env);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.drop();
  });

  it('concurrent upserts of one project in two processes: revisions numbered 1..n, each write once', async () => {
    const p = project();
    const first = await a.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(first.status, first.text).toBe(200);
    const slug = first.json.results[0].slug as string;
    const n = 60;
    const writes = Array.from({ length: n }, (_, i) => {
      const via: Client = i % 2 ? a : b;
      return via.call('POST', '/api/webhook/projects', {
        body: { projects: [{ ...p, description: `Concurrent write number ${i}.` }] },
        headers: { 'x-directory-actor': `writer-${i}` },
      });
    });
    for (const r of await Promise.all(writes)) expect(r.status, r.text).toBe(200);
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const { rows } = await pool.query<{ revision: number; actor: string | null }>(
        'select revision, actor from project_revisions r join projects p on p.id = r.project_id where p.slug = $1 order by revision',
        [slug],
      );
      expect(rows.map((r) => r.revision)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      // each write changed the description from the one before it, except when two wrote the same
      // description in a row (never: every write's is its own), so every write made one revision
      expect(rows).toHaveLength(n + 1);
      expect(new Set(rows.slice(1).map((r) => r.actor)).size).toBe(n);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
