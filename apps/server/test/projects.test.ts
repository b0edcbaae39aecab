import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

describe.each(targets)('projects on $name', (target) => {
  const s = useServer(target);

  const upsert = (projects: unknown[]) => s.call('POST', '/api/webhook/projects', { body: { projects } });
  const get = (slug: string) => s.call('GET', `/api/projects/${encodeURIComponent(slug)}`, { key: false });

  it('creates a project and reads every field back in submitted order', async () => {
    const p = project({
      descriptionEn: 'An English description.',
      content: '# 内容',
      source: 'test',
      tags: [{ name: '大模型', nameEn: 'LLM' }, { name: 'open source' }],
      links: [
        { type: 'PAPER', url: uniqueUrl('paper'), title: 'Paper' },
        { type: 'CODEHOST', url: uniqueUrl('code') },
      ],
    });
    // `results` comes unasked (docs/api.md#1-post-apiwebhookprojects-create-or-update-projects); the old
    // opt-in `results: false` changes nothing.
    const w = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(w.status).toBe(200);
    expect(w.json).toEqual({
      success: true,
      processed: 1,
      created: 1,
      updated: 0,
      failed: 0,
      errors: [],
      results: [{ index: 0, action: 'created', id: expect.any(String), slug: slugOf(p) }],
    });
    const again = await s.call('POST', '/api/webhook/projects', { body: { projects: [p], results: false } });
    expect(again.json.results).toEqual([
      { index: 0, action: 'updated', id: w.json.results[0].id, slug: slugOf(p) },
    ]);
    const r = await get(slugOf(p));
    expect(r.json.data.id).toBe(w.json.results[0].id);
    expect(r.status).toBe(200);
    const d = r.json.data;
    expect(d).toMatchObject({
      name: p.name,
      nameEn: p.nameEn,
      slug: slugOf(p),
      description: p.description,
      descriptionEn: 'An English description.',
      content: '# 内容',
      contentEn: null,
      status: 'ACTIVE',
      source: 'test',
    });
    expect(d.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(d.tags.map((t: any) => [t.name, t.nameEn, t.slug])).toEqual([
      ['大模型', 'LLM', 'llm'],
      ['open source', null, 'open-source'],
    ]);
    expect(d.links.map((l: any) => [l.type, l.title])).toEqual([
      ['PAPER', 'Paper'],
      ['CODEHOST', null],
    ]);
    expect(Object.keys(d.links[0]).sort()).toEqual(['id', 'title', 'type', 'url']);
  });

  it('counts 200 emoji as a valid name (lengths are code points) and refuses 201', async () => {
    const ok = project({ name: '😀'.repeat(200) });
    expect((await upsert([ok])).json.created).toBe(1);
    const r = await upsert([project({ name: '😀'.repeat(201) })]);
    expect(r.status).toBe(400);
    expect(r.json.details[0]).toMatch(/^projects\.0\.name: /);
  });

  it('gives a name that leaves no slug the fallback project-<id>', async () => {
    const p = project({ nameEn: '!!!' });
    const w = await upsert([p]);
    expect(w.json.created).toBe(1);
    const dup = await s.call('POST', '/api/webhook/check-duplicates', {
      body: { projects: [{ codehostUrl: p.links[0]!.url }] },
    });
    const id = dup.json.results[0].projectId as string;
    expect((await get(`project-${id.slice(0, 8)}`)).json.data.id).toBe(id);
  });

  it('keeps the slug when an update renames the project', async () => {
    const p = project();
    await upsert([p]);
    await upsert([{ ...p, nameEn: 'Completely Renamed' }]);
    const r = await get(slugOf(p));
    expect(r.json.data.nameEn).toBe('Completely Renamed');
  });

  it('fails only the item that lists a url twice, and names the url', async () => {
    const url = uniqueUrl('twice');
    const good = project();
    const bad = project({
      links: [
        { type: 'WEBSITE', url },
        { type: 'CODEHOST', url },
      ],
    });
    const r = await upsert([good, bad]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ processed: 2, created: 1, updated: 0, failed: 1 });
    expect(r.json.errors).toEqual([{ index: 1, name: bad.name, error: expect.stringContaining(url) }]);
    expect((await get(slugOf(good))).status).toBe(200);
    expect((await get(slugOf(bad))).status).toBe(404);
  });

  it('treats two items of one request that identify the same project as create then update', async () => {
    const p = project();
    const r = await upsert([p, { ...p, description: 'The second item wins.' }]);
    expect(r.json).toMatchObject({ processed: 2, created: 1, updated: 1, failed: 0 });
    expect((await get(slugOf(p))).json.data.description).toBe('The second item wins.');
  });

  it('writes a batch exactly as if its items were upserted one after the other', async () => {
    // The stored project has two CODEHOST urls. Item a identifies it by the first and replaces
    // its links, dropping the second; item b, which has only the second url, must then find
    // nothing and create a project (written together, both would have found the stored one).
    const [u1, u2] = [uniqueUrl('code'), uniqueUrl('code')];
    const stored = project({
      links: [
        { type: 'CODEHOST', url: u1 },
        { type: 'CODEHOST', url: u2 },
      ],
    });
    await upsert([stored]);
    // (distinct tags: written together, a and b would then not even collide on a row)
    const a = project({
      name: 'item a',
      links: [{ type: 'CODEHOST', url: u1 }],
      tags: [{ name: uniqueUrl() }],
    });
    const b = project({
      name: 'item b',
      links: [{ type: 'CODEHOST', url: u2 }],
      tags: [{ name: uniqueUrl() }],
    });
    const c = { ...project(), name: 'item c' };
    const r = await upsert([a, b, c, { ...c, name: 'item c again' }]);
    expect(r.json).toMatchObject({ processed: 4, created: 2, updated: 2, failed: 0 });
    const first = (await get(slugOf(stored))).json.data;
    expect(first).toMatchObject({ name: 'item a', links: [{ url: u1 }] });
    expect(first.links).toHaveLength(1);
    expect((await get(slugOf(b))).json.data).toMatchObject({ name: 'item b', links: [{ url: u2 }] });
    expect((await get(slugOf(c))).json.data.name).toBe('item c again');
  });

  it('keeps a link row whose url is submitted again, and moves links and tags to their new order', async () => {
    const [tagA, tagB] = [{ name: uniqueUrl('tag-a') }, { name: uniqueUrl('tag-b') }];
    const code = { type: 'CODEHOST', url: uniqueUrl('code') };
    const paper = { type: 'PAPER', url: uniqueUrl('paper'), title: 'old title' };
    const hub = { type: 'MODELHUB', url: uniqueUrl('hub') };
    const p = project({ tags: [tagA, tagB], links: [code, paper] });
    await upsert([p]);
    const before = (await get(slugOf(p))).json.data;
    await upsert([{ ...p, links: [{ ...paper, title: 'new title' }, code, hub], tags: [tagB, tagA] }]);
    const after = (await get(slugOf(p))).json.data;
    expect(after.links.map((l: any) => [l.url, l.title])).toEqual([
      [paper.url, 'new title'],
      [code.url, null],
      [hub.url, null],
    ]);
    expect(after.links[0].id).toBe(before.links[1].id);
    expect(after.tags.map((t: any) => t.name)).toEqual([tagB.name, tagA.name]);
    await upsert([{ ...p, links: [hub], tags: [tagA] }]);
    const last = (await get(slugOf(p))).json.data;
    expect(last.links.map((l: any) => l.url)).toEqual([hub.url]);
    expect(last.tags.map((t: any) => t.name)).toEqual([tagA.name]);
  });

  it('picks the oldest project when several share a CODEHOST url', async () => {
    const shared = uniqueUrl('shared');
    const older = project({ links: [{ type: 'CODEHOST', url: shared }] });
    const newer = project({ links: [{ type: 'CODEHOST', url: uniqueUrl() }] });
    await upsert([older]);
    await upsert([newer]);
    // give the newer project the same CODEHOST url as well
    await upsert([{ ...newer, links: [...newer.links, { type: 'CODEHOST', url: shared }] }]);
    await upsert([{ ...project(), links: [{ type: 'CODEHOST', url: shared }], name: 'oldest wins' }]);
    expect((await get(slugOf(older))).json.data.name).toBe('oldest wins');
    expect((await get(slugOf(newer))).json.data.name).not.toBe('oldest wins');
  });

  it('looks CODEHOST urls up in submitted order', async () => {
    const a = project();
    const b = project();
    await upsert([a, b]);
    const r = await upsert([
      {
        ...project(),
        name: 'second url first',
        links: [
          { type: 'CODEHOST', url: b.links[0]!.url },
          { type: 'CODEHOST', url: a.links[0]!.url },
        ],
      },
    ]);
    expect(r.json.updated).toBe(1);
    expect((await get(slugOf(b))).json.data.name).toBe('second url first');
  });

  it('does not identify by a url of another link type', async () => {
    const a = project();
    await upsert([a]);
    // a's WEBSITE url submitted as a PAPER link is no identity
    const r = await upsert([project({ links: [{ type: 'PAPER', url: a.links[1]!.url }] })]);
    expect(r.json.created).toBe(1);
  });

  it('rejects the whole batch on one invalid item and writes nothing', async () => {
    const good = project();
    const r = await upsert([good, project({ links: [{ type: 'WEBSITE', url: 'javascript:alert(1)' }] })]);
    expect(r.status).toBe(400);
    expect(r.json.details).toEqual([expect.stringMatching(/^projects\.1\.links\.0\.url: /)]);
    expect((await get(slugOf(good))).status).toBe(404);
  });

  it('deletes a project, its links and tag associations; its tasks lose the projectId', async () => {
    const p = project();
    const source = uniqueUrl('task');
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: source }] } });
    const list = await s.call('GET', '/api/discovery/tasks?limit=100&status=PENDING');
    const task = list.json.tasks.find((t: any) => t.sourceUrl === source);
    const done = await s.call('POST', `/api/discovery/tasks/${task.id}/complete`, {
      body: { explorationData: p },
    });
    expect(done.status).toBe(200);

    const r = await s.call('DELETE', `/api/projects/${slugOf(p)}`);
    expect(r.status).toBe(200);
    expect(r.json.data.deleted).toEqual({ linksCount: 2, tagsCount: 1 });
    const after = await s.call('GET', `/api/discovery/tasks/${task.id}`);
    expect(after.json.task).toMatchObject({ status: 'COMPLETED', projectId: null });
    const { rows } = await s.db.pool.query('select count(*)::int as n from links where project_id = $1', [
      done.json.projectId,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('takes a project read back with GET, nulls and all, as an update of itself', async () => {
    const p = project({
      links: [
        { type: 'WEBSITE', url: uniqueUrl('rt'), title: 'Home' },
        { type: 'PAPER', url: uniqueUrl('rt') },
      ],
    });
    await upsert([p]);
    const read = (await get(slugOf(p))).json.data;
    expect(read.descriptionEn).toBeNull();
    const again = await upsert([{ ...read, description: 'Sent back after a read.' }]);
    expect(again.json).toMatchObject({ created: 0, updated: 1, failed: 0 });
    const after = (await get(slugOf(p))).json.data;
    expect(after).toMatchObject({
      id: read.id,
      description: 'Sent back after a read.',
      descriptionEn: null,
      status: 'ACTIVE',
    });
    expect(after.links.map((l: any) => [l.url, l.title])).toEqual(
      read.links.map((l: any) => [l.url, l.title]),
    );
  });

  it('still refuses null for the required fields', async () => {
    const r = await upsert([project({ name: null, tags: null })]);
    expect(r.status).toBe(400);
    expect(r.json.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^projects\.0\.name: /),
        expect.stringMatching(/^projects\.0\.tags: /),
      ]),
    );
  });

  it('accepts the key in the body for DELETE', async () => {
    const p = project();
    await upsert([p]);
    const r = await s.call('DELETE', `/api/projects/${slugOf(p)}`, { key: false, body: { apiKey: s.key } });
    expect(r.status).toBe(200);
  });
});
