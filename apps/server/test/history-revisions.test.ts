import { randomBytes } from 'node:crypto';
import { sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';
import { historyCalls, withoutUpdatedAt } from './history-helpers.ts';

/**
 * Revisions (docs/curation.md#history-revert-locks-and-restore): one per write path and none for
 * a rolled-back write; revert and restore give back the exact earlier project, or 409 when its
 * slug or a link is taken. Locks, the actor, paging and retention: history-locks.test.ts.
 */
describe.each(targets)('history on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const { upsert, get, revisions, stored } = historyCalls(s);

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
});
