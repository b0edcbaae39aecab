import { webhookPayload } from '@directory/core/server';
import { claimDeliveries } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

describe.each(targets)('merges and aliases on $name', (target) => {
  const s = useServer(target);
  const query = async (text: string, values: unknown[] = []) => (await s.db.pool.query(text, values)).rows;

  /** Upserts the inputs; their slugs. */
  async function create(...inputs: Record<string, unknown>[]): Promise<string[]> {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: inputs } });
    expect(r.json).toMatchObject({ failed: 0 });
    return inputs.map((p) => slugOf(p as { nameEn: string }));
  }
  const merge = (from: string, into: string) =>
    s.call('POST', `/api/projects/${encodeURIComponent(from)}/merge`, { body: { into } });
  const get = (slug: string) => s.call('GET', `/api/projects/${encodeURIComponent(slug)}`, { key: false });

  it('moves the links the target lacks, the tags it lacks and the tasks; the source becomes an alias', async () => {
    // one paper, spelled two ways (a WEBSITE or CODEHOST would make the two one project)
    const shared = uniqueUrl('shared');
    const a = project({
      tags: [{ name: `merge-a-${Date.now()}` }, { name: 'shared merge tag' }],
      links: [
        { type: 'CODEHOST', url: uniqueUrl('a-code') },
        { type: 'PAPER', url: shared.replace('https://', 'http://'), title: 'A site' },
        { type: 'PAPER', url: uniqueUrl('a-paper'), title: 'A paper' },
      ],
    });
    const b = project({
      tags: [{ name: 'shared merge tag' }, { name: `merge-b-${Date.now()}` }],
      links: [
        { type: 'CODEHOST', url: uniqueUrl('b-code') },
        { type: 'PAPER', url: shared },
      ],
    });
    const [slugA, slugB] = await create(a, b);
    const before = (await get(slugA!)).json.data;
    const task = a.links[0]!.url;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: task }] } });
    await query('update discovery_tasks set project_id = $1 where source_url = $2', [before.id, task]);

    const r = await merge(slugA!, slugB!);
    expect(r.json).toMatchObject({ success: true });
    expect(r.json.data.merged).toEqual({ id: before.id, slug: slugA });
    const into = r.json.data.project;
    expect(into.slug).toBe(slugB);
    // appended in the source's order, without the link whose key the target has
    expect(into.links.map((l: { url: string }) => l.url)).toEqual([
      b.links[0]!.url,
      shared,
      a.links[0]!.url,
      a.links[2]!.url,
    ]);
    // moved, not copied: the link keeps its id and title
    expect(into.links[3]).toEqual(before.links[2]);
    expect(into.tags.map((t: { name: string }) => t.name)).toEqual([
      'shared merge tag',
      b.tags[1]!.name,
      a.tags[0]!.name,
    ]);
    expect((await get(slugB!)).json.data).toEqual(into);
    expect(await query('select project_id from discovery_tasks where source_url = $1', [task])).toEqual([
      { project_id: into.id },
    ]);
    expect(await query('select count(*)::int as n from projects where id = $1', [before.id])).toEqual([
      { n: 0 },
    ]);
    expect(await query('select count(*)::int as n from links where project_id = $1', [before.id])).toEqual([
      { n: 0 },
    ]);

    // the old slug: 301 on GET, 409 on DELETE and on a merge from it
    const moved = await get(slugA!);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/api/projects/${slugB}`);
    expect(moved.json).toEqual({
      success: false,
      error: 'Moved Permanently',
      details: [`Project "${slugA}" was merged into "${slugB}"`],
      location: `/api/projects/${slugB}`,
    });
    const deleted = await s.call('DELETE', `/api/projects/${slugA}`);
    expect(deleted.status).toBe(409);
    expect(deleted.json.details[0]).toBe(`Project "${slugA}" was merged into "${slugB}"; use "${slugB}"`);
    expect((await merge(slugA!, slugB!)).status).toBe(409);
    // by-url finds the target through a moved link, spelled otherwise
    const byUrl = await s.call(
      'GET',
      `/api/projects/by-url?url=${encodeURIComponent(`${a.links[2]!.url}/`)}`,
      {
        key: false,
      },
    );
    expect(byUrl.json.data.slug).toBe(slugB);
  });

  it("an alias's sub-paths move to the same sub-path of the target, with the query", async () => {
    const [from, into] = await create(project(), project());
    expect((await merge(from!, into!)).status).toBe(200);
    for (const rest of ['/revisions?limit=1', '/revisions/1', '/revisions/1/diff?against=1', '']) {
      const r = await s.call('GET', `/api/projects/${from}${rest}`, { key: false });
      expect(r.status, rest).toBe(301);
      expect(r.headers.get('location'), rest).toBe(`/api/projects/${into}${rest}`);
      expect(r.json.location, rest).toBe(`/api/projects/${into}${rest}`);
      const there = await s.call('GET', r.headers.get('location')!, { key: false });
      expect(there.status, rest).toBe(200);
    }
  });

  it('a merge is a revision of the project kept, even when nothing on it changed', async () => {
    // one paper and the same tags: the merge moves nothing onto the project kept
    const links = [{ type: 'PAPER', url: uniqueUrl('same-paper') }];
    const a = project({ links });
    const [from, into] = await create(a, project({ links, tags: a.tags }));
    const before = (await s.call('GET', `/api/projects/${into}/revisions`, { key: false })).json.revisions;
    expect((await merge(from!, into!)).status).toBe(200);
    const after = (await s.call('GET', `/api/projects/${into}/revisions`, { key: false })).json.revisions;
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({
      revision: before[0].revision + 1,
      action: 'updated',
      via: 'merge',
      merged: [from],
      slug: into,
    });
    // the others carry no `merged`
    expect(after.slice(1).every((r: object) => !('merged' in r))).toBe(true);
    const deleted = await s.call('GET', `/api/projects/deleted?limit=100`);
    expect(deleted.json.projects.find((d: { slug: string }) => d.slug === from)).toMatchObject({
      mergedInto: { slug: into },
    });
  });

  it('409 into itself or into an alias; 404 for an unknown slug on either side', async () => {
    const [x, y, z] = await create(project(), project(), project());
    const self = await merge(x!, x!);
    expect(self.status).toBe(409);
    expect(self.json).toEqual({
      success: false,
      error: 'Conflict',
      details: [`Cannot merge project "${x}" into itself`],
    });
    expect((await merge(y!, z!)).status).toBe(200);
    const intoAlias = await merge(x!, y!);
    expect(intoAlias.status).toBe(409);
    expect(intoAlias.json.details[0]).toBe(
      `Cannot merge into "${y}": it is an alias of "${z}" (merged into it); merge into "${z}"`,
    );
    const unknown = await merge('no-such-project-here', z!);
    expect(unknown.status).toBe(404);
    expect(unknown.json.details).toEqual(['Project with slug "no-such-project-here" not found']);
    expect((await merge(x!, 'no-such-target-here')).status).toBe(404);
    expect((await s.call('POST', `/api/projects/${x}/merge`, { body: {} })).status).toBe(400);
    expect((await s.call('POST', `/api/projects/${x}/merge`, { body: { into: z }, key: false })).status).toBe(
      401,
    );
    // nothing of the refused merges happened
    expect((await get(x!)).status).toBe(200);
  });

  it('a chain of merges resolves to the last target; an upsert by an alias slug updates the target', async () => {
    const inputs = [project(), project(), project()];
    const [a, b, c] = await create(...inputs);
    expect((await merge(a!, b!)).status).toBe(200);
    expect((await merge(b!, c!)).status).toBe(200);
    for (const alias of [a, b]) {
      const r = await get(alias!);
      expect(r.status).toBe(301);
      expect(r.json.location).toBe(`/api/projects/${c}`);
    }
    // the first input again, new links: its generated slug is an alias, so it updates c
    const again = { ...inputs[0]!, links: [{ type: 'PAPER', url: uniqueUrl('again') }] };
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: [again], results: true } });
    expect(r.json.results[0]).toMatchObject({ action: 'updated', slug: c });
    expect((await get(c!)).json.data.name).toBe(inputs[0]!.name);
    expect((await get(a!)).status).toBe(301);
  });

  it('the feed has one project.merged naming both projects, and webhooks deliver it', async () => {
    await s.call('POST', '/api/webhooks', {
      body: { url: 'https://203.0.113.9/merged', events: ['project.merged'] },
    });
    const [from, into] = await create(project(), project());
    const ids = await query('select id, slug from projects where slug = any($1::text[])', [[from, into]]);
    const idOf = (slug: string) => ids.find((r) => r.slug === slug)!.id;
    const start = await s.call('GET', '/api/changes?limit=1000');
    let cursor = start.json.nextCursor;
    for (let page = start; page.json.hasMore; ) {
      page = await s.call('GET', `/api/changes?after=${cursor}&limit=1000`);
      cursor = page.json.nextCursor;
    }
    expect((await merge(from!, into!)).status).toBe(200);
    // On PostgreSQL the feed shows a change once every older transaction of the cluster has ended
    // (gap-free), so another test's open transaction can hold it back a moment: read until it is there.
    const changes: any[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      const page = (await s.call('GET', `/api/changes?after=${cursor}&wait=2`)).json;
      changes.push(...page.changes);
      cursor = page.nextCursor;
      if (changes.some((c) => c.type === 'project.merged') && !page.hasMore) break;
    }
    const merged = changes.filter((c: { type: string }) => c.type === 'project.merged') as {
      at: string;
    }[];
    expect(merged).toEqual([
      {
        cursor: expect.any(String),
        type: 'project.merged',
        at: expect.any(String),
        projectId: idOf(from!),
        slug: from,
        taskId: null,
        intoProjectId: idOf(into!),
        intoSlug: into,
      },
    ]);
    expect(changes.filter((c: { type: string }) => c.type === 'project.deleted')).toEqual([]);
    expect(
      changes
        .filter((c: { projectId: string }) => c.projectId === idOf(into!))
        .map((c: { type: string }) => c.type),
    ).toContain('project.updated');
    const deliveries = await claimDeliveries(s.db.db, 100, 60_000);
    const payload = deliveries
      .filter((d) => d.type === 'project.merged')
      .map((d) => webhookPayload({ ...d, id: d.changeId }));
    expect(payload).toEqual([
      {
        type: 'project.merged',
        timestamp: merged[0]!.at,
        data: { ...merged[0], cursor: expect.any(String) },
      },
    ]);
  });

  it('is all or nothing: a merge that fails midway leaves both projects as they were', async () => {
    const [from, into] = await create(project(), project());
    const before = await Promise.all([get(from!), get(into!)]);
    // The database itself refuses the alias, late in the merge's statement.
    await query(`
      create or replace function refuse_alias() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$;
      create trigger refuse_alias before insert on project_aliases for each row execute function refuse_alias();
    `);
    try {
      const r = await merge(from!, into!);
      expect(r.status).toBe(500);
    } finally {
      await query('drop trigger refuse_alias on project_aliases; drop function refuse_alias()');
    }
    const after = await Promise.all([get(from!), get(into!)]);
    expect(after.map((r) => r.json)).toEqual(before.map((r) => r.json));
    expect(await query('select count(*)::int as n from project_aliases where slug = $1', [from])).toEqual([
      { n: 0 },
    ]);
  });

  it('a deleted target takes its aliases with it: the old slugs are unknown', async () => {
    const [from, into] = await create(project(), project());
    expect((await merge(from!, into!)).status).toBe(200);
    expect((await s.call('DELETE', `/api/projects/${into}`)).status).toBe(200);
    expect((await get(from!)).status).toBe(404);
  });
});
