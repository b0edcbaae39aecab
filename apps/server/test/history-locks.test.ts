import { randomBytes } from 'node:crypto';
import { pruneRevisions, sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';
import { historyCalls } from './history-helpers.ts';

/**
 * Locks, the actor, paging and retention of revisions
 * (docs/curation.md#history-revert-locks-and-restore): a locked field survives an upsert and a
 * complete; X-Directory-Actor is recorded; revisions page by cursor and are pruned; concurrent
 * upserts number them without gaps. Revisions and revert: history-revisions.test.ts.
 */
describe.each(targets)('history on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const { upsert, get, revisions, stored } = historyCalls(s);

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
