import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { project, targets, uniqueUrl, useServer } from './helpers.ts';

/**
 * An upsert builds each revision's body from what it wrote instead of reading the
 * project back. The body must be exactly what endpoint 2 shows right after the write, in every
 * case the write handles: new and stored tags (an English name filled in), links kept, moved,
 * retitled, added and dropped, a project created and updated in one batch, a locked project.
 */
describe.each(targets)('the write path on $name', (target) => {
  const s = useServer(target, {}, 120_000);

  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.failed, r.text).toBe(0);
    return r.json.results as { slug: string; action: string }[];
  };
  /** The latest revision's body, and the project as endpoint 2 shows it now: equal. */
  const expectBodyIsProject = async (slug: string, unchanged = false) => {
    const list = await s.call('GET', `/api/projects/${slug}/revisions?limit=1`);
    expect(list.status, list.text).toBe(200);
    const latest = list.json.revisions[0].revision as number;
    const revision = await s.call('GET', `/api/projects/${slug}/revisions/${latest}`);
    const now = await s.call('GET', `/api/projects/${slug}`);
    // an update that changed nothing stored no revision, but moved updatedAt
    const { updatedAt: _, ...rest } = now.json.data;
    expect(revision.json.data.project).toEqual(
      unchanged ? { ...rest, updatedAt: expect.any(String) } : now.json.data,
    );
    return latest;
  };

  it('stores bodies equal to endpoint 2 for new, changed, repeated and locked projects', async () => {
    const word = randomBytes(3).toString('hex');
    // a tag stored without an English name, filled in by a later input
    await upsert([project({ tags: [{ name: `bare-${word}` }] })]);
    const a = project({
      tags: [
        { name: `bare-${word}`, nameEn: `Bare ${word}` },
        { name: `new-${word}`, nameEn: `New ${word}` },
      ],
    });
    a.links = [...a.links, { type: 'PAPER', url: uniqueUrl('paper'), title: 'Paper' }] as typeof a.links;
    const b = project();
    const [ra, rb] = await upsert([a, b]);
    for (const r of [ra!, rb!]) expect(await expectBodyIsProject(r.slug)).toBe(1);

    // links reordered, one retitled, one dropped, one added; tags reordered; fields left out
    const changed = {
      name: a.name,
      description: 'Changed by the second write.',
      tags: [a.tags[1], { name: `third-${word}` }, a.tags[0]],
      links: [
        { ...a.links[2], title: 'Retitled' },
        a.links[0],
        { type: 'MODELHUB', url: uniqueUrl('model') },
      ],
    };
    // created and then updated in one batch (two runs), and b changed in the same batch
    const c = project();
    const [r1, , r3, r4] = await upsert([
      changed,
      c,
      { ...c, description: 'Updated in the same batch.' },
      { ...b, status: 'ARCHIVED' },
    ]);
    expect(r3!.action).toBe('updated');
    expect(await expectBodyIsProject(r1!.slug)).toBe(2);
    expect(await expectBodyIsProject(r3!.slug)).toBe(2);
    expect(await expectBodyIsProject(r4!.slug)).toBe(2);

    // the same again changes nothing: no revision
    await upsert([changed]);
    expect(await expectBodyIsProject(r1!.slug, true)).toBe(2);

    // a locked project: the locked fields stay, the body still equals endpoint 2
    const lock = await s.call('PUT', `/api/projects/${r1!.slug}/lock`, {
      body: { fields: ['name', 'tags'] },
    });
    expect(lock.status, lock.text).toBe(200);
    const [locked] = await upsert([
      { ...changed, description: 'Under a lock.', tags: [{ name: `other-${word}` }] },
    ]);
    expect(locked!.action).toBe('updated');
    expect(await expectBodyIsProject(r1!.slug)).toBe(4);
  });

  it("a project changed by another path between an upsert's read and its write: retried, nothing lost", async () => {
    // Locks, reverts and upserts of one project at once: an upsert whose project was written
    // meanwhile starts again (its row version no longer matches), so every write lands once,
    // revisions are numbered without gaps, and the last body is endpoint 2's.
    const base = project();
    const [created] = await upsert([base]);
    const slug = created!.slug;
    const writes = Array.from({ length: 24 }, (_, i) => {
      if (i % 4 === 1)
        return s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: ['description'] } });
      if (i % 4 === 3) return s.call('DELETE', `/api/projects/${slug}/lock`);
      return s.call('POST', '/api/webhook/projects', {
        body: {
          projects: [
            {
              ...base,
              description: `Concurrent write ${i}.`,
              links: [base.links[0], { type: 'PAPER', url: uniqueUrl(`race-${i}`) }],
            },
          ],
        },
      });
    });
    const replies = await Promise.all(writes);
    for (const r of replies) {
      expect(r.status, r.text).toBe(200);
      if (r.json.failed !== undefined) expect(r.json.failed, r.text).toBe(0);
    }
    const list = await s.call('GET', `/api/projects/${slug}/revisions?limit=100`);
    const numbers = (list.json.revisions as { revision: number }[])
      .map((r) => r.revision)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const now = await s.call('GET', `/api/projects/${slug}`);
    expect(now.json.data.links).toHaveLength(2);
    await expectBodyIsProject(slug);
  });
});
