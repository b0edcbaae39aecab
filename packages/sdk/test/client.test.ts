import { project, startServer, type TestServer, targets, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryClient,
  type DirectoryClient,
  DirectoryError,
  type ProjectInput,
} from '../src/index.ts';

/** The DirectoryError a call rejects with (fails the test when it resolves). */
async function failure(call: Promise<unknown>): Promise<DirectoryError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DirectoryError);
  return err as DirectoryError;
}

describe.each(targets)('the SDK on $name', (target) => {
  let s: TestServer;
  let client: DirectoryClient;
  let anonymous: DirectoryClient;
  beforeAll(async () => {
    s = await startServer(target);
    client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
    anonymous = createDirectoryClient({ baseUrl: s.baseUrl, retries: 0 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const newProject = () => project() as ProjectInput & { nameEn: string };
  const slugOf = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');

  /** Creates a task and returns its id (the create reply carries counts only). */
  async function newTask(): Promise<string> {
    const sourceUrl = uniqueUrl('sdk-task');
    await client.tasks.create({ tasks: [{ sourceUrl }] });
    for await (const page of client.tasks.listAll()) {
      const task = page.find((t) => t.sourceUrl === sourceUrl);
      if (task) return task.id;
    }
    throw new Error(`task for ${sourceUrl} not listed`);
  }

  describe('projects', () => {
    it('upsert creates, then updates; returns the full reply', async () => {
      const p = newProject();
      expect(await client.projects.upsert({ projects: [p] })).toEqual({
        success: true,
        processed: 1,
        created: 1,
        updated: 0,
        failed: 0,
        errors: [],
        results: [{ index: 0, action: 'created', id: expect.any(String), slug: expect.any(String) }],
      });
      const again = await client.projects.upsert({ projects: [{ ...p, description: 'A new description.' }] });
      expect(again).toMatchObject({ created: 0, updated: 1 });
    });

    it('upsert: a 400 carries the envelope; a missing key is a 401', async () => {
      const bad = await failure(
        client.projects.upsert({ projects: [{ ...newProject(), description: 'short' }] }),
      );
      expect(bad).toMatchObject({ status: 400, error: 'Validation error', name: 'DirectoryError' });
      expect(bad.details[0]).toMatch(/^projects\.0\.description: /);
      expect(bad.message).toContain('Validation error: projects.0.description');
      const denied = await failure(anonymous.projects.upsert({ projects: [newProject()] }));
      expect(denied).toMatchObject({
        status: 401,
        error: 'Unauthorized',
        details: ['Invalid or missing API Key'],
      });
    });

    it('get returns the project; an unknown slug is a 404', async () => {
      const p = newProject();
      await client.projects.upsert({ projects: [p] });
      const got = await anonymous.projects.get({ slug: slugOf(p) });
      expect(got.success).toBe(true);
      expect(got.data).toMatchObject({ name: p.name, slug: slugOf(p), status: 'ACTIVE' });
      expect(got.data.links.map((l) => l.url)).toEqual(p.links.map((l) => l.url));
      const missing = await failure(client.projects.get({ slug: 'no-such-project' }));
      expect(missing).toMatchObject({
        status: 404,
        error: 'Not Found',
        details: ['Project with slug "no-such-project" not found'],
      });
    });

    it('delete removes the project; a second delete is a 404', async () => {
      const p = newProject();
      await client.projects.upsert({ projects: [p] });
      const deleted = await client.projects.delete({ slug: slugOf(p) });
      expect(deleted).toMatchObject({
        success: true,
        data: { project: { name: p.name, slug: slugOf(p) }, deleted: { linksCount: 2, tagsCount: 1 } },
      });
      expect((await failure(client.projects.delete({ slug: slugOf(p) }))).status).toBe(404);
      expect((await failure(anonymous.projects.delete({ slug: 'x' }))).status).toBe(401);
    });

    it('checkDuplicates reports matches; an empty list is a 400', async () => {
      const p = newProject();
      await client.projects.upsert({ projects: [p] });
      const r = await client.projects.checkDuplicates({
        projects: [{ codehostUrl: p.links[0]!.url }, { slug: 'nothing-like-this' }],
      });
      expect(r.results.map((x) => [x.exists, x.matchType])).toEqual([
        [true, 'CODEHOST_URL'],
        [false, 'NONE'],
      ]);
      expect(r.stats).toMatchObject({ total: 2, exists: 1, new: 1 });
      const bad = await failure(client.projects.checkDuplicates({ projects: [] }));
      expect(bad).toMatchObject({ status: 400, error: 'Validation error' });
      expect(bad.details[0]).toMatch(/^projects: /);
    });
  });

  describe('tasks', () => {
    it('create counts created and skipped; a non-HTTP url is a 400', async () => {
      const url = uniqueUrl('create');
      expect(await client.tasks.create({ tasks: [{ sourceUrl: url }, { sourceUrl: url }] })).toEqual({
        success: true,
        created: 1,
        skipped: 1,
        total: 2,
      });
      const bad = await failure(client.tasks.create({ tasks: [{ sourceUrl: 'ftp://example.org/x' }] }));
      expect(bad.status).toBe(400);
      expect(bad.details[0]).toMatch(/^tasks\.0\.sourceUrl: /);
    });

    it('list sends status, limit and offset in the query; a bad limit is a 400', async () => {
      const id = await newTask();
      const page = await client.tasks.list({ status: 'PENDING', limit: 100 });
      expect(page.success).toBe(true);
      expect(page.tasks.every((t) => t.status === 'PENDING')).toBe(true);
      expect(page.tasks.map((t) => t.id)).toContain(id);
      const one = await client.tasks.list({ limit: 1, offset: 1 });
      expect(one.tasks).toHaveLength(1);
      expect(one.tasks[0]!.id).toBe((await client.tasks.list({ limit: 2 })).tasks[1]!.id);
      const bad = await failure(client.tasks.list({ limit: 101 }));
      expect(bad).toMatchObject({ status: 400, error: 'Validation error' });
      expect(bad.details[0]).toMatch(/^limit: /);
    });

    it('get returns the task without a key; an unknown id is a 404', async () => {
      const id = await newTask();
      const got = await anonymous.tasks.get({ id });
      expect(got).toMatchObject({ success: true, task: { id, status: 'PENDING', retryCount: 0 } });
      const missing = await failure(anonymous.tasks.get({ id: 'nope' }));
      expect(missing).toMatchObject({ status: 404, details: ['Task with id "nope" not found'] });
    });

    it('updateStatus moves the task; a disallowed change is a 409', async () => {
      const id = await newTask();
      const r = await client.tasks.updateStatus({ id, status: 'IN_PROGRESS', explorationSummary: 'looking' });
      expect(r.task).toMatchObject({ id, status: 'IN_PROGRESS', explorationSummary: 'looking' });
      expect(r.task.startedAt).not.toBeNull();
      const conflict = await failure(client.tasks.updateStatus({ id, status: 'IN_PROGRESS' }));
      expect(conflict).toMatchObject({
        status: 409,
        error: 'Conflict',
        details: ['Cannot change task status from IN_PROGRESS to IN_PROGRESS'],
      });
    });

    it('complete links a project; invalid data is a 400 and the task FAILED', async () => {
      const id = await newTask();
      const p = newProject();
      const done = await client.tasks.complete({ id, explorationData: p });
      expect(done).toMatchObject({ success: true, taskId: id, action: 'created' });
      expect((await client.tasks.get({ id })).task).toMatchObject({
        status: 'COMPLETED',
        projectId: done.projectId,
      });

      const other = await newTask();
      const invalid = { ...newProject(), tags: [] };
      const bad = await failure(client.tasks.complete({ id: other, explorationData: invalid }));
      expect(bad).toMatchObject({ status: 400, error: 'Invalid exploration data format' });
      expect((await client.tasks.get({ id: other })).task.status).toBe('FAILED');
    });

    it('checkDuplicates decides per url; a missing key is a 401', async () => {
      const id = await newTask();
      const { sourceUrl } = (await client.tasks.get({ id })).task;
      const fresh = uniqueUrl('fresh');
      const r = await client.tasks.checkDuplicates({ urls: [sourceUrl, fresh] });
      expect(r.results.map((x) => [x.url, x.shouldCreate, x.reason])).toEqual([
        [sourceUrl, false, 'Task already pending'],
        [fresh, true, 'New URL'],
      ]);
      expect(r.stats).toEqual({ total: 2, shouldCreate: 1, duplicate: 1 });
      const denied = await failure(anonymous.tasks.checkDuplicates({ urls: [fresh] }));
      expect(denied).toMatchObject({ status: 401, error: 'Unauthorized' });
    });
  });
  describe('tasks.listAll', () => {
    it('walks every page with limit and offset until hasMore is false', async () => {
      const urls = [
        uniqueUrl('page'),
        uniqueUrl('page'),
        uniqueUrl('page'),
        uniqueUrl('page'),
        uniqueUrl('page'),
      ];
      for (const sourceUrl of urls) await client.tasks.create({ tasks: [{ sourceUrl }] });
      const { total } = await client.tasks.list({ limit: 1 });
      const pages = [];
      for await (const page of client.tasks.listAll({ pageSize: 3 })) pages.push(page);
      expect(pages.map((p) => p.length)).toEqual([
        ...Array.from({ length: Math.floor(total / 3) }, () => 3),
        ...(total % 3 ? [total % 3] : []),
      ]);
      const all = pages.flat();
      expect(new Set(all.map((t) => t.id)).size).toBe(total);
      expect(all.map((t) => t.sourceUrl).filter((u) => urls.includes(u))).toEqual(urls);
    });

    it('filters by status', async () => {
      const id = await newTask();
      await client.tasks.updateStatus({ id, status: 'IN_PROGRESS' });
      await client.tasks.updateStatus({ id, status: 'FAILED', errorMessage: 'gave up' });
      const failed = [];
      for await (const page of client.tasks.listAll({ status: 'FAILED', pageSize: 1 })) {
        expect(page).toHaveLength(1);
        failed.push(...page);
      }
      expect(failed.every((t) => t.status === 'FAILED')).toBe(true);
      expect(failed.map((t) => t.id)).toContain(id);
      expect(failed).toHaveLength((await client.tasks.list({ status: 'FAILED' })).total);
    });
  });

  it('projects.merge, byUrl, duplicates; get follows the 301 of a merged slug', async () => {
    const [a, b] = [newProject(), newProject()];
    const shared = `https://huggingface.co/Sdk-${Date.now()}/Model`;
    await client.projects.upsert({
      projects: [
        { ...a, links: [...a.links, { type: 'MODELHUB', url: shared }] },
        { ...b, links: [...b.links, { type: 'MODELHUB', url: `${shared.toLowerCase()}/tree/main` }] },
      ],
    });
    const dupes = await client.projects.duplicates({ limit: 100 });
    const group = dupes.groups.find((g) => g.key === shared.slice('https://'.length).toLowerCase());
    expect(group?.projects.map((p) => p.slug)).toEqual([slugOf(a), slugOf(b)]);

    const merged = await client.projects.merge({ slug: slugOf(a), into: slugOf(b) });
    expect(merged.data.merged.slug).toBe(slugOf(a));
    expect(merged.data.project.slug).toBe(slugOf(b));
    const followed = await anonymous.projects.get({ slug: slugOf(a) });
    expect(followed.data).toEqual(merged.data.project);
    const byUrl = await anonymous.projects.byUrl({ url: a.links[0]!.url.replace('https://', 'http://') });
    expect(byUrl.data.slug).toBe(slugOf(b));
    const refused = await failure(client.projects.merge({ slug: slugOf(a), into: slugOf(b) }));
    expect(refused).toMatchObject({ status: 409, error: 'Conflict' });
  });
});
