import { randomBytes } from 'node:crypto';
import { sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

/** Tags are curated: rename, merge, aliases (docs/curation.md#tags). */
describe.each(targets)('tag curation on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const run = randomBytes(3).toString('hex');
  let n = 0;
  /** A tag input no other test names. */
  const fresh = (en?: string) => {
    const i = ++n;
    return { name: `标签${run}-${i}`, ...(en !== undefined && { nameEn: `${en} ${run} ${i}` }) };
  };

  const upsert = async (projects: unknown[], headers: Record<string, string> = {}) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects }, headers });
    expect(r.status, r.text).toBe(200);
    return r.json.results as { slug: string; action: string }[];
  };
  const tagsOf = async (slug: string) =>
    ((await s.call('GET', `/api/projects/${slug}`)).json.data.tags as { slug: string; name: string }[]).map(
      (t) => t.slug,
    );
  const listed = async (q: string) =>
    (await s.call('GET', `/api/tags?q=${encodeURIComponent(q)}&limit=100`)).json.tags as {
      slug: string;
      name: string;
      nameEn: string | null;
      aliases: string[];
      projectCount: number;
    }[];
  const slugOfTag = async (name: string) => {
    const { rows } = await sql<{ slug: string }>`select slug from tags where name = ${name}`.execute(s.db.db);
    return rows[0]!.slug;
  };
  const filtered = async (tag: string) =>
    (
      (await s.call('GET', `/api/projects?tag=${encodeURIComponent(tag)}&limit=100`)).json.projects as {
        slug: string;
      }[]
    ).map((p) => p.slug);

  describe('PATCH /api/tags/{slug}', () => {
    it('renames either language; projects, search, facets and GET /api/tags show the new names', async () => {
      const tag = fresh('Old');
      const [p] = await upsert([project({ tags: [tag] })]);
      const slug = await slugOfTag(tag.name);
      const r = await s.call('PATCH', `/api/tags/${slug}`, {
        body: { name: `新名${run}`, nameEn: `Renamed ${run}` },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.json.tag).toMatchObject({ slug, name: `新名${run}`, nameEn: `Renamed ${run}`, aliases: [] });
      const detail = (await s.call('GET', `/api/projects/${p!.slug}`)).json.data;
      expect(detail.tags[0]).toMatchObject({ slug, name: `新名${run}`, nameEn: `Renamed ${run}` });
      const found = await listed(`Renamed ${run}`);
      expect(found.map((t) => t.slug)).toEqual([slug]);
      const facets = (await s.call('GET', `/api/projects?tag=${slug}&facets=tags`)).json.facets.tags;
      expect(facets).toContainEqual(expect.objectContaining({ slug, nameEn: `Renamed ${run}`, count: 1 }));
      // only nameEn
      const r2 = await s.call('PATCH', `/api/tags/${slug}`, { body: { nameEn: `Again ${run}` } });
      expect(r2.json.tag).toMatchObject({ name: `新名${run}`, nameEn: `Again ${run}` });
      // a later write naming the new name gets the tag
      const [q] = await upsert([project({ tags: [{ name: `新名${run}` }] })]);
      expect(await tagsOf(q!.slug)).toEqual([slug]);
    });

    it('409 when another tag has that name (as its name or nameEn); 404 unknown; 400 nothing to change', async () => {
      const a = fresh('Alpha');
      const b = fresh('Beta');
      await upsert([project({ tags: [a, b] })]);
      const slugA = await slugOfTag(a.name);
      for (const body of [{ name: b.name }, { nameEn: b.nameEn }, { name: b.nameEn }]) {
        const r = await s.call('PATCH', `/api/tags/${slugA}`, { body });
        expect(r.status, r.text).toBe(409);
        expect(r.json.details[0]).toContain('merge');
      }
      expect((await s.call('PATCH', '/api/tags/no-such-tag', { body: { name: 'x' } })).status).toBe(404);
      expect((await s.call('PATCH', `/api/tags/${slugA}`, { body: {} })).status).toBe(400);
      expect((await s.call('PATCH', `/api/tags/${slugA}`, { body: { name: 'x' }, key: false })).status).toBe(
        401,
      );
    });
  });

  describe('POST /api/tags/{slug}/merge', () => {
    it('moves every project to `into`, keeping tag order without duplicates, one revision each', async () => {
      const old = fresh('LLM');
      const into = fresh('Large');
      const other = fresh('Other');
      const [onlyOld, both, neither] = await upsert([
        project({ tags: [other, old] }),
        project({ tags: [old, other, into] }),
        project({ tags: [other] }),
      ]);
      const oldSlug = await slugOfTag(old.name);
      const intoSlug = await slugOfTag(into.name);
      const otherSlug = await slugOfTag(other.name);
      const r = await s.call('POST', `/api/tags/${oldSlug}/merge`, {
        body: { into: intoSlug },
        headers: { 'x-directory-actor': 'curator' },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({
        merged: oldSlug,
        projectsChanged: 2,
        tag: { slug: intoSlug, aliases: [oldSlug] },
      });
      expect(await tagsOf(onlyOld!.slug)).toEqual([otherSlug, intoSlug]);
      expect(await tagsOf(both!.slug)).toEqual([intoSlug, otherSlug]);
      expect(await tagsOf(neither!.slug)).toEqual([otherSlug]);
      for (const p of [onlyOld!, both!]) {
        const revs = (await s.call('GET', `/api/projects/${p.slug}/revisions`)).json.revisions;
        expect(revs[0]).toMatchObject({ revision: 2, via: 'tag-merge', actor: 'curator' });
      }
      expect((await s.call('GET', `/api/projects/${neither!.slug}/revisions`)).json.revisions).toHaveLength(
        1,
      );
      // GET /api/tags lists only `into`, with the alias
      const tags = await listed(run);
      expect(tags.map((t) => t.slug)).not.toContain(oldSlug);
      expect(tags.find((t) => t.slug === intoSlug)).toMatchObject({ aliases: [oldSlug], projectCount: 2 });
      // a filter by the old slug filters as `into`
      expect((await filtered(oldSlug)).sort()).toEqual([onlyOld!.slug, both!.slug].sort());
      // facets count `into` only
      const facets = (await s.call('GET', `/api/projects?tag=${intoSlug}&facets=tags`)).json.facets.tags;
      expect(facets.map((f: { slug: string }) => f.slug)).not.toContain(oldSlug);
      // a write naming the old tag, by name or by nameEn, gets `into`
      const [byName, byNameEn, twice] = await upsert([
        project({ tags: [{ name: old.name }] }),
        project({ tags: [{ name: `另一个${run}`, nameEn: old.nameEn }] }),
        project({ tags: [old, into] }),
      ]);
      expect(await tagsOf(byName!.slug)).toEqual([intoSlug]);
      expect(await tagsOf(byNameEn!.slug)).toEqual([intoSlug]);
      expect(await tagsOf(twice!.slug)).toEqual([intoSlug]);
      // no project holds an alias
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from project_tags pt join tags t on t.id = pt.tag_id where t.alias_of is not null
      `.execute(s.db.db);
      expect(rows[0]!.n).toBe(0);
      // the tag kept may take the merged tag's name; writes naming it still find the tag kept
      const took = await s.call('PATCH', `/api/tags/${intoSlug}`, {
        body: { name: old.name, nameEn: old.nameEn },
      });
      expect(took.status, took.text).toBe(200);
      expect(took.json.tag).toMatchObject({
        slug: intoSlug,
        name: old.name,
        nameEn: old.nameEn,
        aliases: [oldSlug],
      });
      const [named] = await upsert([project({ tags: [{ name: old.name }] })]);
      expect(await tagsOf(named!.slug)).toEqual([intoSlug]);
      // the same merge again changes nothing
      const again = await s.call('POST', `/api/tags/${oldSlug}/merge`, { body: { into: intoSlug } });
      expect(again.status, again.text).toBe(200);
      expect(again.json.projectsChanged).toBe(0);
    });

    it('into an alias merges into its target; aliases follow; a cycle is 409; unknown 404', async () => {
      const a = fresh('A');
      const b = fresh('B');
      const c = fresh('C');
      const [pa, pb] = await upsert([project({ tags: [a] }), project({ tags: [b] }), project({ tags: [c] })]);
      const [sa, sb, sc] = [await slugOfTag(a.name), await slugOfTag(b.name), await slugOfTag(c.name)];
      expect((await s.call('POST', `/api/tags/${sa}/merge`, { body: { into: sb } })).status).toBe(200);
      // b into a: a is an alias of b, so b into b
      const cycle = await s.call('POST', `/api/tags/${sb}/merge`, { body: { into: sa } });
      expect(cycle.status, cycle.text).toBe(409);
      expect((await s.call('POST', `/api/tags/${sb}/merge`, { body: { into: sb } })).status).toBe(409);
      // a was merged into b already: into c is a conflict
      expect((await s.call('POST', `/api/tags/${sa}/merge`, { body: { into: sc } })).status).toBe(409);
      // c into a (an alias of b) merges c into b
      const r = await s.call('POST', `/api/tags/${sc}/merge`, { body: { into: sa } });
      expect(r.status, r.text).toBe(200);
      expect(r.json.tag).toMatchObject({ slug: sb, aliases: [sa, sc].sort() });
      // b into a fresh tag d: b's aliases move with it
      const d = fresh('D');
      await upsert([project({ tags: [d] })]);
      const sd = await slugOfTag(d.name);
      const r2 = await s.call('POST', `/api/tags/${sb}/merge`, { body: { into: sd } });
      expect(r2.json.tag).toMatchObject({ slug: sd, aliases: [sa, sb, sc].sort() });
      expect(await tagsOf(pa!.slug)).toEqual([sd]);
      expect(await tagsOf(pb!.slug)).toEqual([sd]);
      expect((await filtered(sa)).length).toBe(4);
      expect((await s.call('POST', '/api/tags/nope/merge', { body: { into: sd } })).status).toBe(404);
      expect((await s.call('POST', `/api/tags/${sd}/merge`, { body: { into: 'nope' } })).status).toBe(404);
      // renaming an alias is refused, naming its target
      const renamed = await s.call('PATCH', `/api/tags/${sa}`, { body: { name: `x${run}` } });
      expect(renamed.status).toBe(409);
      expect(renamed.json.details[0]).toContain(sd);
    });
  });

  it.runIf(target.postgres)(
    'a merge racing upserts that name the old tag: they end with the target',
    async () => {
      const old = fresh('Racing');
      const into = fresh('Winner');
      await upsert([project({ tags: [old] }), project({ tags: [into] })]);
      const oldSlug = await slugOfTag(old.name);
      const intoSlug = await slugOfTag(into.name);
      const writes = Array.from({ length: 40 }, (_, i) =>
        new Promise((r) => setTimeout(r, i * 3)).then(() =>
          upsert([project({ tags: [{ name: old.name }] })]),
        ),
      );
      const merge = new Promise((r) => setTimeout(r, 30)).then(() =>
        s.call('POST', `/api/tags/${oldSlug}/merge`, { body: { into: intoSlug } }),
      );
      const [merged, ...written] = await Promise.all([merge, ...writes]);
      expect(merged.status, merged.text).toBe(200);
      for (const [p] of written as { slug: string }[][]) expect(await tagsOf(p!.slug)).toEqual([intoSlug]);
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from project_tags pt join tags t on t.id = pt.tag_id where t.alias_of is not null
    `.execute(s.db.db);
      expect(rows[0]!.n).toBe(0);
    },
  );
});
