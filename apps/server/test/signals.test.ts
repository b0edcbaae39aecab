import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';

/**
 * Signals through the write path (docs/search.md#signals-and-standing): written by endpoint 1,
 * returned by endpoint 2 and in list items, kept when an update leaves them (or one of them) out
 * (docs/decisions.md#signals), refused when negative, not whole or unknown; and `sort=standing`.
 */
describe.each(targets)('signals and standing on $name', (target) => {
  const s = useServer(target, {}, 120_000);

  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.failed, r.text).toBe(0);
    return r.json.results as { slug: string }[];
  };
  const detail = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}`);
    expect(r.status, r.text).toBe(200);
    return r.json.data;
  };

  it('are written, read in the detail and the list, and kept by a partial update', async () => {
    const p = project({ signals: { stars: 1200, downloads: 34_000 } });
    await upsert([p]);
    const slug = slugOf(p);
    expect((await detail(slug)).signals).toEqual({ stars: 1200, downloads: 34_000 });
    const list = await s.call('GET', `/api/projects?q=${encodeURIComponent(p.nameEn)}&limit=5`);
    const item = list.json.projects.find((x: { slug: string }) => x.slug === slug);
    expect(item.signals).toEqual({ stars: 1200, downloads: 34_000 });

    // left out: kept
    await upsert([{ ...p, signals: undefined, description: 'Described again, signals left out.' }]);
    expect((await detail(slug)).signals).toEqual({ stars: 1200, downloads: 34_000 });
    // null is "not given" as for every optional field
    await upsert([{ ...p, signals: null }]);
    expect((await detail(slug)).signals).toEqual({ stars: 1200, downloads: 34_000 });
    // only stars: the stored downloads are kept
    await upsert([{ ...p, signals: { stars: 1300 } }]);
    expect((await detail(slug)).signals).toEqual({ stars: 1300, downloads: 34_000 });
    // zero is a value, not "left out"
    await upsert([{ ...p, signals: { downloads: 0 } }]);
    expect((await detail(slug)).signals).toEqual({ stars: 1300, downloads: 0 });
    // the largest safe integer is stored and read exactly
    await upsert([{ ...p, signals: { stars: Number.MAX_SAFE_INTEGER } }]);
    expect((await detail(slug)).signals.stars).toBe(Number.MAX_SAFE_INTEGER);
    // the revisions record them, and a diff names them
    const revs = await s.call('GET', `/api/projects/${slug}/revisions/1`);
    expect(revs.json.data.project.signals).toEqual({ stars: 1200, downloads: 34_000 });
  });

  it('a project never sent signals has them null', async () => {
    const p = project();
    await upsert([p]);
    expect((await detail(slugOf(p))).signals).toEqual({ stars: null, downloads: null });
  });

  it.each([
    [{ stars: -1 }, 'signals.stars'],
    [{ stars: 1.5 }, 'signals.stars'],
    [{ downloads: '12' }, 'signals.downloads'],
    [{ stars: Number.MAX_SAFE_INTEGER + 1 }, 'signals.stars'],
    [{ stars: 1, star: 2 }, 'signals'],
    ['many', 'signals'],
  ])('refuses signals %j naming %s (400, nothing written)', async (signals, path) => {
    const p = project({ signals });
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error).toBe('Validation error');
    expect(r.json.details.join('\n')).toContain(path);
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
  });

  it('sort=standing orders by standing alone, ties newest first, through keyset pages', async () => {
    const source = `standing-${Date.now()}-${target.name}`;
    const paper = (n: number) => [{ type: 'PAPER', url: `https://arxiv.org/abs/${source}.${n}` }];
    // a: one link type, no signals; b: one link type and many stars; c: one type and a few stars;
    // d and e: the same standing as a (e written later: newer)
    const a = project({ source, links: paper(1) });
    const b = project({ source, links: paper(2), signals: { stars: 100_000, downloads: 5_000_000 } });
    const c = project({ source, links: paper(3), signals: { stars: 50 } });
    const d = project({ source, links: paper(4) });
    const e = project({ source, links: paper(5) });
    await upsert([a, b, c, d]);
    await upsert([e]);
    const slugs = async (query: string) => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const r: { status: number; text: string; json: any } = await s.call(
          'GET',
          `/api/projects?source=${source}&sort=standing&limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(r.status, r.text).toBe(200);
        expect(r.json.total).toBe(5);
        out.push(...r.json.projects.map((p: { slug: string }) => p.slug));
        cursor = r.json.nextCursor;
      } while (cursor);
      return out;
    };
    const desc = await slugs('');
    expect(desc.slice(0, 3)).toEqual([slugOf(b), slugOf(c), slugOf(e)]);
    expect(new Set(desc.slice(3))).toEqual(new Set([slugOf(a), slugOf(d)]));
    const asc = await slugs('&order=asc');
    expect(asc).toEqual([...desc].reverse());

    // a lock (a person keeps it) lifts a above c (50 stars), not above b (100,000 stars, 5 M downloads)
    const locked = await s.call('PUT', `/api/projects/${slugOf(a)}/lock`, {
      body: { fields: ['name'], reason: 'kept by hand' },
    });
    expect(locked.status, locked.text).toBe(200);
    const after = await s.call('GET', `/api/projects?source=${source}&sort=standing&limit=3`);
    expect(after.json.projects.map((p: { slug: string }) => p.slug)).toEqual([
      slugOf(b),
      slugOf(a),
      slugOf(c),
    ]);
  });
});
