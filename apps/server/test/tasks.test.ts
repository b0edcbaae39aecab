import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

describe.each(targets)('discovery tasks on $name', (target) => {
  const s = useServer(target);

  const create = (tasks: unknown[]) => s.call('POST', '/api/discovery/tasks', { body: { tasks } });
  const patch = (id: string, body: unknown) => s.call('PATCH', `/api/discovery/tasks/${id}`, { body });
  const complete = (id: string, explorationData: unknown) =>
    s.call('POST', `/api/discovery/tasks/${id}/complete`, { body: { explorationData } });
  async function newTask() {
    const url = uniqueUrl('task');
    expect((await create([{ sourceUrl: url }])).json.created).toBe(1);
    const { rows } = await s.db.pool.query('select id from discovery_tasks where source_url = $1', [url]);
    return rows[0].id as string;
  }
  const task = async (id: string) =>
    (await s.call('GET', `/api/discovery/tasks/${id}`, { key: false })).json.task;

  it('lists in queue order, keeping the submitted order of one request', async () => {
    const urls = Array.from({ length: 20 }, () => uniqueUrl('order'));
    expect((await create(urls.map((sourceUrl) => ({ sourceUrl })))).json).toEqual({
      success: true,
      created: 20,
      skipped: 0,
      total: 20,
    });
    const all = await s.call('GET', '/api/discovery/tasks?limit=100');
    const listed = all.json.tasks.map((t: any) => t.sourceUrl).filter((u: string) => urls.includes(u));
    expect(listed).toEqual(urls);
  });

  it('pages with limit and offset; total and hasMore agree', async () => {
    for (let i = 0; i < 3; i++) await create([{ sourceUrl: uniqueUrl('page') }]);
    const total = (await s.call('GET', '/api/discovery/tasks?limit=1')).json.total as number;
    const pages = [];
    for (let offset = 0; offset < total; offset += 7) {
      const r = await s.call('GET', `/api/discovery/tasks?limit=7&offset=${offset}`);
      expect(r.json.hasMore).toBe(offset + r.json.tasks.length < total);
      pages.push(...r.json.tasks);
    }
    expect(pages).toHaveLength(total);
    expect(new Set(pages.map((t) => t.id)).size).toBe(total);
    const beyond = await s.call('GET', `/api/discovery/tasks?offset=${total + 5}`);
    expect(beyond.json).toEqual({ success: true, tasks: [], total, hasMore: false, nextCursor: null });
  });

  it('filters by status, with a total of that status', async () => {
    const id = await newTask();
    await patch(id, { status: 'IN_PROGRESS' });
    const r = await s.call('GET', '/api/discovery/tasks?status=IN_PROGRESS&limit=100');
    expect(r.json.tasks.every((t: any) => t.status === 'IN_PROGRESS')).toBe(true);
    expect(r.json.tasks.map((t: any) => t.id)).toContain(id);
    expect(r.json.total).toBe(r.json.tasks.length);
  });

  it('refuses a sourceUrl that is not HTTP(S)', async () => {
    const r = await create([{ sourceUrl: 'ftp://example.org/x' }]);
    expect(r.status).toBe(400);
    expect(r.json.details[0]).toMatch(/^tasks\.0\.sourceUrl: /);
  });

  it('walks the state machine with the documented side effects', async () => {
    const id = await newTask();
    const started = (await patch(id, { status: 'IN_PROGRESS', explorationSummary: 'reading' })).json.task;
    expect(started).toMatchObject({
      status: 'IN_PROGRESS',
      explorationSummary: 'reading',
      completedAt: null,
    });
    const failed = (await patch(id, { status: 'FAILED', errorMessage: 'timeout' })).json.task;
    expect(failed).toMatchObject({ status: 'FAILED', errorMessage: 'timeout', startedAt: started.startedAt });
    expect(failed.completedAt).not.toBeNull();
    const retried = (await patch(id, { status: 'PENDING' })).json.task;
    expect(retried).toMatchObject({ status: 'PENDING', retryCount: 1, startedAt: null, completedAt: null });
    expect(retried.errorMessage).toBe('timeout');
    expect(retried.explorationSummary).toBe('reading');
    expect(retried.lastRetryAt).not.toBeNull();
    await patch(id, { status: 'IN_PROGRESS' });
    await patch(id, { status: 'FAILED' });
    expect((await patch(id, { status: 'PENDING' })).json.task.retryCount).toBe(2);
  });

  it('answers every move outside the table with 409 and changes nothing', async () => {
    const id = await newTask();
    await patch(id, { status: 'IN_PROGRESS' });
    const before = await task(id);
    for (const status of ['IN_PROGRESS', 'PENDING']) {
      const r = await patch(id, { status, explorationSummary: 'must not be stored' });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({
        success: false,
        error: 'Conflict',
        details: [`Cannot change task status from IN_PROGRESS to ${status}`],
      });
    }
    expect(await task(id)).toEqual(before);
  });

  it('checks 400 before 404 and 404 before 409', async () => {
    expect((await patch('no-such-task', { status: 'BOGUS' })).status).toBe(400);
    expect((await patch('no-such-task', { status: 'PENDING' })).status).toBe(404);
  });

  it('stores explorationData objects and clears fields sent as null', async () => {
    const id = await newTask();
    const data = { pages: [1, 2], nested: { 中文: true } };
    expect(
      (await patch(id, { status: 'IN_PROGRESS', explorationData: data })).json.task.explorationData,
    ).toEqual(data);
    const cleared = (await patch(id, { status: 'FAILED', explorationData: null, errorMessage: null })).json
      .task;
    expect(cleared.explorationData).toBeNull();
    const r = await patch(id, { status: 'PENDING', explorationData: [1, 2] });
    expect(r.status).toBe(400);
    expect(r.json.details[0]).toMatch(/^explorationData: /);
  });

  it('completes with the validated input stored, startedAt set, and no unknown fields', async () => {
    const id = await newTask();
    const p = project({ unknownField: 'dropped' });
    const r = await complete(id, p);
    expect(r.json).toMatchObject({ success: true, taskId: id, action: 'created', slug: slugOf(p) });
    const t = await task(id);
    expect(t.status).toBe('COMPLETED');
    expect(t.startedAt).not.toBeNull();
    expect(t.explorationData).not.toHaveProperty('unknownField');
    expect(t.explorationData.name).toBe(p.name);
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`)).json.data.id).toBe(r.json.projectId);
  });

  it('checks 404 and 409 before the data, and records invalid data on the task', async () => {
    expect((await complete('no-such-task', { nonsense: true })).status).toBe(404);
    const id = await newTask();
    await complete(id, project());
    const again = await complete(id, { nonsense: true });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe('Conflict');

    const other = await newTask();
    const bad = await complete(other, { ...project(), description: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('Invalid exploration data format');
    expect(bad.json.details).toEqual([expect.stringMatching(/^explorationData\.description: /)]);
    const t = await task(other);
    expect(t.status).toBe('FAILED');
    expect(t.errorMessage).toContain('explorationData.description');
    expect(t.completedAt).not.toBeNull();
  });

  it('refuses exploration data that lists one url twice, naming it', async () => {
    const id = await newTask();
    const url = uniqueUrl('dup');
    const r = await complete(
      id,
      project({
        links: [
          { type: 'WEBSITE', url },
          { type: 'PAPER', url },
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Invalid exploration data format');
    expect(r.json.details[0]).toContain(url);
  });

  it('reports action "updated" when the project exists, and links the task to it', async () => {
    const p = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const id = await newTask();
    const r = await complete(id, p);
    expect(r.json.action).toBe('updated');
    expect((await task(id)).projectId).toBe(r.json.projectId);
  });
});
