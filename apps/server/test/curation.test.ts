import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

/**
 * Editing, undo and duplicates to decide on (webhook deliveries: curation-deliveries.test.ts)
 * (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see).
 */
describe.each(targets)('curation on $name', (target) => {
  const s = useServer(target, { allowPrivateWebhookTargets: true, webhookTimeoutMs: 2_000 }, 120_000);

  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    return r.json.results as { id: string; slug: string }[];
  };
  const get = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}`);
    expect(r.status, r.text).toBe(200);
    return { project: r.json.data, etag: r.headers.get('etag')! };
  };
  const revisions = async (slug: string) =>
    (await s.call('GET', `/api/projects/${slug}/revisions?limit=100`)).json.revisions as {
      revision: number;
      via: string;
      actor: string | null;
    }[];

  describe('PATCH /api/projects/{slug}', () => {
    it('changes the given fields only, clears with null, replaces lists, records a revision via "edit"', async () => {
      const p = project({ descriptionEn: 'An English description.', content: 'Some content' });
      const slug = slugOf(p);
      await upsert([p]);
      const before = await get(slug);
      const r = await s.call('PATCH', `/api/projects/${slug}`, {
        body: {
          nameEn: 'Renamed Project',
          content: null,
          tags: [{ name: 'curated', nameEn: 'Curated' }, { name: `tag-x-${slug}` }],
          links: [p.links[1]!, { type: 'PAPER', url: 'https://arxiv.org/abs/2307.09288' }],
        },
        headers: { 'if-match': before.etag, 'x-directory-actor': 'curator' },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.json.revision).toBe(2);
      const data = r.json.data;
      expect(data.nameEn).toBe('Renamed Project');
      expect(data.name).toBe(p.name);
      expect(data.descriptionEn).toBe('An English description.');
      expect(data.content).toBeNull();
      expect(data.tags.map((t: { name: string }) => t.name)).toEqual(['curated', `tag-x-${slug}`]);
      expect(data.links.map((l: { url: string }) => l.url)).toEqual([
        p.links[1]!.url,
        'https://arxiv.org/abs/2307.09288',
      ]);
      // a kept url keeps its link id
      expect(data.links[0].id).toBe(before.project.links[1].id);
      // the answer's ETag is endpoint 2's now
      const after = await get(slug);
      expect(r.headers.get('etag')).toBe(after.etag);
      expect(after.project).toEqual(data);
      expect((await revisions(slug))[0]).toMatchObject({ revision: 2, via: 'edit', actor: 'curator' });

      // the same edit again changes nothing: no revision, the same ETag
      const again = await s.call('PATCH', `/api/projects/${slug}`, {
        body: { nameEn: 'Renamed Project' },
        headers: { 'if-match': after.etag },
      });
      expect(again.status, again.text).toBe(200);
      expect(again.json.revision).toBeNull();
      expect(again.headers.get('etag')).toBe(after.etag);
    });

    it('412 when the project changed since the ETag; a lock does not hold an edit back', async () => {
      const p = project();
      const slug = slugOf(p);
      await upsert([p]);
      const { etag } = await get(slug);
      const lock = await s.call('PUT', `/api/projects/${slug}/lock`, {
        body: { fields: '*', reason: 'curated' },
        headers: { 'x-directory-actor': 'alice' },
      });
      expect(lock.status, lock.text).toBe(200);
      const stale = await s.call('PATCH', `/api/projects/${slug}`, {
        body: { status: 'ARCHIVED' },
        headers: { 'if-match': etag },
      });
      expect(stale.status, stale.text).toBe(412);
      expect(stale.json.error).toBe('Precondition Failed');
      expect(stale.json.details[0]).toMatch(/^If-Match: .*revision 2 via "lock" by "alice" at /);
      expect((await get(slug)).project.status).toBe('ACTIVE');

      const fresh = await get(slug);
      const ok = await s.call('PATCH', `/api/projects/${slug}`, {
        body: { status: 'ARCHIVED', name: '已编辑的名字' },
        headers: { 'if-match': fresh.etag },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json.data).toMatchObject({ status: 'ARCHIVED', name: '已编辑的名字' });
      expect(ok.json.data.lock.fields).toContain('name');
    });

    it('two edits with one ETag: exactly one passes', async () => {
      const p = project();
      const slug = slugOf(p);
      await upsert([p]);
      const { etag } = await get(slug);
      const answers = await Promise.all(
        ['First edit description.', 'Second edit description.'].map((description) =>
          s.call('PATCH', `/api/projects/${slug}`, { body: { description }, headers: { 'if-match': etag } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    });

    it('refuses bad input and links owned elsewhere, changing nothing', async () => {
      const [a, b] = [project(), project()];
      await upsert([a, b]);
      const slug = slugOf(a);
      const before = await get(slug);
      const cases: [unknown, number, RegExp][] = [
        [{ name: null }, 400, /^name: /],
        [{ description: 'short' }, 400, /^description: /],
        [{ tags: [] }, 400, /^tags: /],
        [{ links: [{ type: 'WEBSITE', url: 'ftp://x' }] }, 400, /^links\.0\.url: /],
        [
          { links: [b.links[0], { type: 'WEBSITE', url: uniqueUrl() }] },
          409,
          new RegExp(`^links\\.0\\.url: The url "${b.links[0]!.url}" now belongs to project "${slugOf(b)}"$`),
        ],
      ];
      for (const [body, status, detail] of cases) {
        const r = await s.call('PATCH', `/api/projects/${slug}`, { body });
        expect(r.status, r.text).toBe(status);
        expect(r.json.details[0]).toMatch(detail);
      }
      expect((await get(slug)).etag).toBe(before.etag);
      expect((await s.call('PATCH', '/api/projects/no-such-project', { body: {} })).status).toBe(404);
      expect((await s.call('PATCH', `/api/projects/${slug}`, { body: {}, key: false })).status).toBe(401);
    });
  });

  describe('revert and restore with links owned elsewhere', () => {
    it('revert: 409 per link by default, "skip" leaves them with their owner', async () => {
      const p = project();
      const slug = slugOf(p);
      await upsert([p]);
      const other = project();
      // the project drops its CODEHOST link; another project takes it
      await upsert([{ ...p, links: [p.links[1]!] }]);
      await upsert([{ ...other, links: [p.links[0], ...other.links.slice(1)] }]);
      const fail = await s.call('POST', `/api/projects/${slug}/revert`, { body: { revision: 1 } });
      expect(fail.status, fail.text).toBe(409);
      expect(fail.json.details).toEqual([
        `links.0.url: The url "${p.links[0]!.url}" now belongs to project "${slugOf(other)}"`,
      ]);
      const skip = await s.call('POST', `/api/projects/${slug}/revert`, {
        body: { revision: 1, links: 'skip' },
      });
      expect(skip.status, skip.text).toBe(200);
      expect(skip.json.skipped).toEqual([{ url: p.links[0]!.url, slug: slugOf(other) }]);
      expect(skip.json.data.links.map((l: { url: string }) => l.url)).toEqual([p.links[1]!.url]);
    });

    it('restore: "skip" too; a merged project is refused naming its target; the deleted list marks it', async () => {
      const p = project();
      const slug = slugOf(p);
      const [created] = await upsert([p]);
      expect((await s.call('DELETE', `/api/projects/${slug}`)).status).toBe(200);
      const taker = project({ links: [p.links[0]] });
      await upsert([taker]);
      const fail = await s.call('POST', `/api/projects/deleted/${created!.id}/restore`, { body: {} });
      expect(fail.status, fail.text).toBe(409);
      expect(fail.json.details[0]).toContain(`now belongs to project "${slugOf(taker)}"`);
      const skip = await s.call('POST', `/api/projects/deleted/${created!.id}/restore`, {
        body: { links: 'skip' },
      });
      expect(skip.status, skip.text).toBe(200);
      expect(skip.json.skipped).toEqual([{ url: p.links[0]!.url, slug: slugOf(taker) }]);

      const [m, into] = [project(), project()];
      const [mc] = await upsert([m, into]);
      const merged = await s.call('POST', `/api/projects/${slugOf(m)}/merge`, {
        body: { into: slugOf(into) },
      });
      expect(merged.status, merged.text).toBe(200);
      const refused = await s.call('POST', `/api/projects/deleted/${mc!.id}/restore`, { body: {} });
      expect(refused.status, refused.text).toBe(409);
      expect(refused.json.details).toEqual([`Project "${slugOf(m)}" was merged into "${slugOf(into)}"`]);
      expect(refused.json.location).toBe(`/api/projects/${slugOf(into)}`);
      const deleted = (await s.call('GET', '/api/projects/deleted?limit=100')).json.projects as {
        id: string;
        mergedInto: { slug: string } | null;
      }[];
      expect(deleted.find((d) => d.id === mc!.id)?.mergedInto).toEqual({ slug: slugOf(into) });
    });
  });

  describe('duplicates', () => {
    it('suggestedInto keeps the curated project; dismissing a pair removes its group until undone', async () => {
      // a paper link is no identity: two projects may share it (as crawlers make them)
      const paper = `https://arxiv.org/abs/2307.${String(Date.now()).slice(-5)}`;
      const stub = project();
      stub.links.push({ type: 'PAPER', url: paper });
      const curated = project();
      curated.links.push({ type: 'PAPER', url: `${paper}v2` });
      await upsert([stub]);
      await upsert([curated]);
      const edit = await s.call('PATCH', `/api/projects/${slugOf(curated)}`, {
        body: { descriptionEn: 'Curated by hand, in English.' },
      });
      expect(edit.status, edit.text).toBe(200);
      const key = `arxiv:${paper.split('/abs/')[1]}`;
      const group = async () =>
        (
          (await s.call('GET', '/api/projects/duplicates?limit=100')).json.groups as {
            key: string;
            suggestedInto: string;
            projects: Record<string, unknown>[];
          }[]
        ).find((g) => g.key === key);
      const g = await group();
      expect(g?.suggestedInto).toBe(slugOf(curated));
      expect(g?.projects[1]).toMatchObject({
        slug: slugOf(curated),
        descriptionEn: 'Curated by hand, in English.',
        revisions: 2,
        locked: false,
      });
      expect(Object.keys(g!.projects[0]!).sort()).toEqual(
        [
          'description',
          'descriptionEn',
          'id',
          'links',
          'locked',
          'name',
          'nameEn',
          'revisions',
          'slug',
          'updatedAt',
        ].sort(),
      );

      const slugs = [slugOf(stub), slugOf(curated)];
      const dismissed = await s.call('POST', '/api/projects/duplicates/dismiss', { body: { slugs } });
      expect(dismissed.status, dismissed.text).toBe(200);
      expect(dismissed.json.pairs).toBe(1);
      expect(await group()).toBeUndefined();
      const listed = await s.call('GET', '/api/projects/duplicates?dismissed=true');
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json.dismissals[0].projects.map((p: { slug: string }) => p.slug).sort()).toEqual(
        [...slugs].sort(),
      );
      const undone = await s.call('DELETE', '/api/projects/duplicates/dismiss', { body: { slugs } });
      expect(undone.status, undone.text).toBe(200);
      expect(undone.json.pairs).toBe(1);
      expect((await group())?.suggestedInto).toBe(slugOf(curated));

      for (const [body, status] of [
        [{ slugs: [slugs[0]] }, 400],
        [{ slugs: [slugs[0], slugs[0]] }, 400],
        [{ slugs: [slugs[0], 'no-such-project'] }, 404],
      ] as const) {
        expect((await s.call('POST', '/api/projects/duplicates/dismiss', { body })).status).toBe(status);
      }
    });
  });

  describe('bounds', () => {
    it('a revision above 2,147,483,647 is 400 in a path and a body; tRPC with a form body is 415', async () => {
      const p = project();
      const slug = slugOf(p);
      await upsert([p]);
      for (const [method, path, body] of [
        ['GET', `/api/projects/${slug}/revisions/3000000000`, undefined],
        ['GET', `/api/projects/${slug}/revisions/1/diff?against=3000000000`, undefined],
        ['POST', `/api/projects/${slug}/revert`, { revision: 3_000_000_000 }],
        ['GET', '/api/discovery/tasks?offset=3000000000', undefined],
      ] as const) {
        const r = await s.call(method, path, body === undefined ? {} : { body });
        expect(r.status, `${method} ${path}: ${r.text}`).toBe(400);
      }
      const form = await s.call('POST', '/trpc/projects.revert', {
        raw: 'revision=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status, form.text).toBe(415);
    });
  });
});
