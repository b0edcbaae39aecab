import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';

// The tags an upsert writes (projects.test.ts: the rest of an upsert).
describe.each(targets)('projects on $name', (target) => {
  const s = useServer(target);

  const upsert = (projects: unknown[]) => s.call('POST', '/api/webhook/projects', { body: { projects } });
  const get = (slug: string) => s.call('GET', `/api/projects/${encodeURIComponent(slug)}`, { key: false });

  it('reuses tags by name, fills a missing nameEn once, and numbers colliding tag slugs', async () => {
    const base = `Slug Clash ${Date.now()}`;
    const first = project({ tags: [{ name: base }] });
    const second = project({ tags: [{ name: base.toUpperCase() }] });
    const third = project({ tags: [{ name: `${base}!` }] });
    await upsert([first, second, third]);
    const slugs = await Promise.all(
      [first, second, third].map(async (p) => (await get(slugOf(p))).json.data.tags[0].slug),
    );
    const expected = base.toLowerCase().replace(/ /g, '-');
    expect(slugs).toEqual([expected, `${expected}-2`, `${expected}-3`]);

    // nameEn is filled in when the stored tag has none; the slug stays
    const again = project({ tags: [{ name: base, nameEn: 'Filled In' }] });
    await upsert([again]);
    const tag = (await get(slugOf(again))).json.data.tags[0];
    expect([tag.nameEn, tag.slug]).toEqual(['Filled In', expected]);
    // ... and not overwritten afterwards
    const later = project({ tags: [{ name: base, nameEn: 'Other' }] });
    await upsert([later]);
    expect((await get(slugOf(later))).json.data.tags[0].nameEn).toBe('Filled In');
  });

  it('counts the same tag name twice in one input once', async () => {
    const p = project({
      tags: [{ name: 'twice-tag' }, { name: 'other-tag' }, { name: 'twice-tag', nameEn: 'Ignored' }],
    });
    await upsert([p]);
    expect((await get(slugOf(p))).json.data.tags.map((t: any) => t.name)).toEqual(['twice-tag', 'other-tag']);
  });

  it('gives tags whose name leaves no slug tag-<id>', async () => {
    const p = project({ tags: [{ name: '🔥🔥' }] });
    await upsert([p]);
    const tag = (await get(slugOf(p))).json.data.tags[0];
    expect(tag.slug).toBe(`tag-${tag.id.slice(0, 8)}`);
  });
});
