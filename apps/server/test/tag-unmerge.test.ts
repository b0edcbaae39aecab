import { randomBytes } from 'node:crypto';
import { sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

/** Undoing a tag merge (docs/curation.md#undoing-a-merge). */
describe.each(targets)('POST /api/tags/{slug}/unmerge on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const fresh = (en: string) => {
    const i = ++n;
    return { name: `撤销${run}-${i}`, nameEn: `${en} ${run} ${i}` };
  };
  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    return r.json.results as { slug: string; action: string }[];
  };
  const tagsOf = async (slug: string) =>
    ((await s.call('GET', `/api/projects/${slug}`)).json.data.tags as { slug: string }[]).map((t) => t.slug);
  const listed = async (q: string) =>
    (await s.call('GET', `/api/tags?q=${encodeURIComponent(q)}&limit=100`)).json.tags as {
      slug: string;
      aliases: string[];
      projectCount: number;
    }[];
  const filtered = async (tag: string) =>
    ((await s.call('GET', `/api/projects?tag=${tag}&limit=100`)).json.projects as { slug: string }[])
      .map((p) => p.slug)
      .sort();
  const slugOfTag = async (name: string) => {
    const { rows } = await sql<{ slug: string }>`select slug from tags where name = ${name}`.execute(s.db.db);
    return rows[0]!.slug;
  };
  const merge = async (slug: string, into: string) => {
    const r = await s.call('POST', `/api/tags/${slug}/merge`, { body: { into } });
    expect(r.status, r.text).toBe(200);
  };
  const unmerge = (slug: string, headers: Record<string, string> = {}) =>
    s.call('POST', `/api/tags/${slug}/unmerge`, { body: {}, headers });
  const aliasRows = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from project_tags pt join tags t on t.id = pt.tag_id where t.alias_of is not null
    `.execute(s.db.db);
    return rows[0]!.n;
  };

  it('gives the tag back its names, aliases and projects, in their order, one revision each', async () => {
    const [old, into, other, alias] = [fresh('Old'), fresh('Into'), fresh('Other'), fresh('Alias')];
    const [first, onlyOld, both, neither] = await upsert([
      project({ tags: [alias] }),
      project({ tags: [other, old] }),
      project({ tags: [old, other, into] }),
      project({ tags: [into] }),
    ]);
    const [oldSlug, intoSlug, otherSlug, aliasSlug] = (await Promise.all(
      [old, into, other, alias].map((t) => slugOfTag(t.name)),
    )) as [string, string, string, string];
    await merge(aliasSlug, oldSlug);
    await merge(oldSlug, intoSlug);
    expect(await tagsOf(both!.slug)).toEqual([intoSlug, otherSlug]);
    const r = await unmerge(oldSlug, { 'x-directory-actor': 'curator' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      success: true,
      tag: { slug: oldSlug, name: old.name, nameEn: old.nameEn, aliases: [aliasSlug] },
      from: { slug: intoSlug, aliases: [] },
      projectsChanged: 3,
      skipped: [],
    });
    expect(await tagsOf(first!.slug)).toEqual([oldSlug]);
    expect(await tagsOf(onlyOld!.slug)).toEqual([otherSlug, oldSlug]);
    expect(await tagsOf(both!.slug)).toEqual([oldSlug, otherSlug, intoSlug]);
    expect(await tagsOf(neither!.slug)).toEqual([intoSlug]);
    const revs = (await s.call('GET', `/api/projects/${onlyOld!.slug}/revisions`)).json.revisions;
    expect(revs[0]).toMatchObject({ revision: 3, via: 'tag-unmerge', actor: 'curator' });
    expect(revs[1]).toMatchObject({ revision: 2, via: 'tag-merge' });
    // the read model: the tag list, filters (the alias filters as the tag again)
    const tags = await listed(run);
    expect(tags.find((t) => t.slug === oldSlug)).toMatchObject({ aliases: [aliasSlug], projectCount: 3 });
    expect(tags.find((t) => t.slug === intoSlug)).toMatchObject({ aliases: [], projectCount: 2 });
    const three = [first!.slug, onlyOld!.slug, both!.slug].sort();
    expect(await filtered(oldSlug)).toEqual(three);
    expect(await filtered(aliasSlug)).toEqual(three);
    // a write naming it gets it again, not the tag it had been merged into
    const [named] = await upsert([project({ tags: [{ name: old.name }] })]);
    expect(await tagsOf(named!.slug)).toEqual([oldSlug]);
    // twice: 409, the database as the first left it
    const again = await unmerge(oldSlug);
    expect([again.status, again.json.success]).toEqual([409, false]);
    expect(again.json.details[0]).toContain('not merged');
    expect(await tagsOf(both!.slug)).toEqual([oldSlug, otherSlug, intoSlug]);
    expect((await unmerge(`nope-${run}`)).status).toBe(404);
    expect((await unmerge(intoSlug)).status).toBe(409);
    // it can be merged again, and undone again
    await merge(oldSlug, intoSlug);
    expect((await unmerge(oldSlug)).json.projectsChanged).toBe(4);
    expect(await aliasRows()).toBe(0);
  });

  it('leaves a project changed since the merge as it is, and lists it', async () => {
    const [old, into] = [fresh('Kept'), fresh('Target')];
    const editedInput = project({ tags: [old] });
    const [untouched, edited] = await upsert([
      project({ tags: [old] }),
      editedInput,
      project({ tags: [into] }),
    ]);
    const [oldSlug, intoSlug] = (await Promise.all([old, into].map((t) => slugOfTag(t.name)))) as [
      string,
      string,
    ];
    await merge(oldSlug, intoSlug);
    const [again] = await upsert([{ ...editedInput, description: 'Edited after the merge.' }]);
    expect(again).toMatchObject({ slug: edited!.slug, action: 'updated' });
    const r = await unmerge(oldSlug);
    expect(r.status, r.text).toBe(200);
    expect(r.json.projectsChanged).toBe(1);
    expect(r.json.skipped).toEqual([{ slug: edited!.slug, reason: 'changed since the merge' }]);
    expect(await tagsOf(untouched!.slug)).toEqual([oldSlug]);
    expect(await tagsOf(edited!.slug)).toEqual([intoSlug]);
    const revs = (await s.call('GET', `/api/projects/${edited!.slug}/revisions`)).json.revisions;
    expect(revs[0].via).toBe('upsert');
  });

  it('is 409 when the names were taken since, changing nothing', async () => {
    const [old, into] = [fresh('Taken'), fresh('Taker')];
    const [p] = await upsert([project({ tags: [old] }), project({ tags: [into] })]);
    const [oldSlug, intoSlug] = (await Promise.all([old, into].map((t) => slugOfTag(t.name)))) as [
      string,
      string,
    ];
    await merge(oldSlug, intoSlug);
    const took = await s.call('PATCH', `/api/tags/${intoSlug}`, { body: { nameEn: old.nameEn } });
    expect(took.status, took.text).toBe(200);
    const r = await unmerge(oldSlug);
    expect(r.status).toBe(409);
    expect(r.json.details[0]).toContain(intoSlug);
    expect(await tagsOf(p!.slug)).toEqual([intoSlug]);
    expect((await listed(run)).map((t) => t.slug)).not.toContain(oldSlug);
  });

  it('is 401 without a key, 403 without the curate scope', async () => {
    expect((await s.call('POST', '/api/tags/x/unmerge', { body: {}, key: false })).status).toBe(401);
    const k = await s.call('POST', '/api/keys', { body: { name: `reader ${run}`, scopes: ['tasks:read'] } });
    expect(k.status, k.text).toBe(201);
    const r = await s.call('POST', '/api/tags/x/unmerge', { body: {}, key: k.json.data.key });
    expect([r.status, r.json.details]).toEqual([403, ['scope: this key lacks "curate"']]);
  });

  it.runIf(target.postgres)(
    'racing upserts naming the tag, and a second unmerge: no duplicate tag, no project on an alias',
    async () => {
      const [old, into] = [fresh('Race'), fresh('Goal')];
      const [p] = await upsert([project({ tags: [old] }), project({ tags: [into] })]);
      const [oldSlug, intoSlug] = (await Promise.all([old, into].map((t) => slugOfTag(t.name)))) as [
        string,
        string,
      ];
      await merge(oldSlug, intoSlug);
      const writes = Array.from({ length: 30 }, (_, i) =>
        new Promise((r) => setTimeout(r, i * 3)).then(() =>
          upsert([project({ tags: [{ name: old.name }] })]),
        ),
      );
      const undo = (ms: number) => new Promise((r) => setTimeout(r, ms)).then(() => unmerge(oldSlug));
      const [a, b, ...written] = await Promise.all([undo(30), undo(35), ...writes]);
      expect([a!.status, b!.status].sort()).toEqual([200, 409]);
      // each write got the tag kept or the tag restored, once
      for (const [w] of written as { slug: string }[][]) {
        const tags = await tagsOf(w!.slug);
        expect([[oldSlug], [intoSlug]]).toContainEqual(tags);
      }
      expect(await tagsOf(p!.slug)).toEqual([oldSlug]);
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from tags where name = ${old.name}
      `.execute(s.db.db);
      expect(rows[0]!.n).toBe(1);
      expect(await aliasRows()).toBe(0);
      expect((await listed(run)).find((t) => t.slug === oldSlug)).toBeDefined();
    },
  );
});
