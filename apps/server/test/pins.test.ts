import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  type ServerProcess,
  slugOf,
  spawnServer,
  targets,
  useServer,
} from './helpers.ts';

/**
 * Curated results (docs/search.md#curated-results-pins): GET/PUT /api/search/pins, refused without
 * `curate`, applied to relevance searches (first in order, hidden never, filters and deletes
 * respected, pages consistent), and fresh in another process within a second.
 */
describe.each(targets)('pins on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const word = () => `pinword${randomBytes(4).toString('hex').replace(/\d/g, 'q')}`;

  const put = (pins: unknown, key?: string | false) =>
    s.call('PUT', '/api/search/pins', { body: { pins }, ...(key !== undefined && { key }) });
  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
  };
  const list = async (query: string) => {
    const r = await s.call('GET', `/api/projects?${query}`, { key: false });
    expect(r.status, r.text).toBe(200);
    return r.json as { projects: { slug: string; match: any }[]; total: number; nextCursor: string | null };
  };

  afterAll(async () => {
    await put([]);
  });

  it('PUT replaces them all, normalising each query; GET reads them without a key', async () => {
    const r = await put([
      { query: '  GPT-4o  Mini ', first: ['a', 'b', 'a'] },
      { query: 'Qwen', first: [], hide: ['c'] },
    ]);
    expect(r.status, r.text).toBe(200);
    const pins = [
      { query: 'gpt 4o mini', first: ['a', 'b'], hide: [] },
      { query: 'qwen', first: [], hide: ['c'] },
    ];
    expect(r.json).toEqual({ success: true, pins });
    const got = await s.call('GET', '/api/search/pins', { key: false });
    expect(got.json).toEqual({ success: true, pins });
    expect((await put([])).json.pins).toEqual([]);
  });

  it.each([
    [
      [
        { query: 'qwen', first: [] },
        { query: ' QWEN! ', first: [] },
      ],
      'pins.1.query',
    ],
    [[{ query: '', first: [] }], 'pins.0.query'],
    [[{ query: 'x'.repeat(201), first: [] }], 'pins.0.query'],
    [[{ query: '!!!', first: [] }], 'pins.0.query'],
    [[{ query: 'qwen', first: Array.from({ length: 11 }, (_, i) => `s${i}`) }], 'pins.0.first'],
    [[{ query: 'qwen', first: [], hide: Array.from({ length: 11 }, (_, i) => `s${i}`) }], 'pins.0.hide'],
    [[{ query: 'qwen' }], 'pins.0.first'],
    [[{ query: 'qwen', first: [], top: [] }], 'pins.0'],
  ])('refuses %j naming %s (400)', async (pins, path) => {
    const r = await put(pins);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error).toBe('Validation error');
    expect(r.json.details.join('\n')).toContain(path);
  });

  it('refuses more than 1,000 pins', async () => {
    const r = await put(Array.from({ length: 1001 }, (_, i) => ({ query: `q${i}`, first: [] })));
    expect(r.status, r.text).toBe(400);
  });

  it('needs a key with curate: 401 without a key, 403 without the scope', async () => {
    expect((await put([], false)).status).toBe(401);
    const made = await s.call('POST', '/api/keys', {
      body: { name: 'pins reader', scopes: ['projects:write'] },
    });
    expect(made.status, made.text).toBe(201);
    const refused = await put([{ query: 'qwen', first: ['x'] }], made.json.data.key);
    expect(refused.status, refused.text).toBe(403);
    expect((await s.call('GET', '/api/search/pins', { key: false })).json.pins).toEqual([]);
  });

  it('shows the first ones first in order, never the hidden, respects filters and deletes, pages without repeats', async () => {
    const w = word();
    const source = `pins-${w}`;
    const matching = Array.from({ length: 6 }, (_, i) =>
      project({ nameEn: `${w} Thing ${i}`, description: `All about ${w} number ${i}.`, source }),
    );
    // pinned but matching no word of the query
    const outsider = project({ source });
    await upsert([...matching, outsider]);
    const before = await list(`q=${w}&limit=50`);
    expect(before.total).toBe(6);
    const [m0, m1, m2, m3] = before.projects.map((p) => p.slug);
    const archived = project({ source, nameEn: `${w} Archived`, status: 'ARCHIVED' });
    await upsert([archived]);

    const r = await put([
      {
        query: w.toUpperCase(),
        first: [slugOf(outsider), m3!, slugOf(archived), 'no-such-project'],
        hide: [m0!],
      },
    ]);
    expect(r.status, r.text).toBe(200);
    const page = await list(`q=${w}&limit=50&status=ACTIVE`);
    const slugs = page.projects.map((p) => p.slug);
    expect(slugs.slice(0, 2)).toEqual([slugOf(outsider), m3]);
    expect(slugs).not.toContain(m0);
    expect(slugs).not.toContain(slugOf(archived));
    expect(page.total).toBe(slugs.length);
    expect(page.total).toBe(6 - 1 + 1);
    // a pinned project scores above every match; one that matches no word says `name`
    expect(page.projects[0]!.match).toMatchObject({ field: 'name', score: 101, typos: 0 });
    expect(page.projects[1]!.match.score).toBe(101);
    expect(page.projects[2]!.match.score).toBeLessThanOrEqual(100);
    // with status=ALL the archived pinned one shows, in its place
    const all = await list(`q=${w}&limit=50`);
    expect(all.projects.slice(0, 3).map((p) => p.slug)).toEqual([slugOf(outsider), m3, slugOf(archived)]);

    // pages of 1: the same order, no repeats, through the pinned ones and on
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await list(
        `q=${w}&limit=1&status=ACTIVE${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(p.total).toBe(page.total);
      walked.push(...p.projects.map((x) => x.slug));
      cursor = p.nextCursor;
    } while (cursor);
    expect(walked).toEqual(slugs);

    // another sort ignores pins
    const byName = await list(`q=${w}&limit=50&sort=name`);
    expect(byName.projects.map((p) => p.slug)).toContain(m0);
    expect(byName.projects.map((p) => p.slug)).not.toContain(slugOf(outsider));

    // a deleted pinned project never shows
    const del = await s.call('DELETE', `/api/projects/${m3}`);
    expect(del.status, del.text).toBe(200);
    const after = await list(`q=${w}&limit=50&status=ACTIVE`);
    expect(after.projects.map((p) => p.slug)).not.toContain(m3);
    expect(after.projects[0]!.slug).toBe(slugOf(outsider));
    expect(after.projects.map((p) => p.slug)).toContain(m1);
    expect(after.projects.map((p) => p.slug)).toContain(m2);
  });
});

/** Another process applies a PUT within a second (docs/search.md#curated-results-pins). */
describe.skipIf(!POSTGRES_URL)('pins across processes on PostgreSQL', () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const env = { DATABASE_URL: database.url, WEBHOOK_API_KEY: key };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    await Promise.all([ready(a), ready(b)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.stop('SIGKILL')));
    await database?.drop();
  }, 60_000);

  async function ready(s: Client, ms = 60_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await s.call('GET', '/healthz', { key: false }).catch(() => undefined);
      if (r?.status === 200) return;
      if (Date.now() > deadline) throw new Error(`not ready: ${r?.status} ${r?.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a PUT through one process orders the other within 1 s', async () => {
    const w = `pinx${randomBytes(4).toString('hex').replace(/\d/g, 'z')}`;
    const ps = Array.from({ length: 3 }, (_, i) => project({ nameEn: `${w} Item ${i}` }));
    const wrote = await a.call('POST', '/api/webhook/projects', { body: { projects: ps } });
    expect(wrote.status, wrote.text).toBe(200);
    const position = wrote.headers.get('x-directory-position')!;
    const first = (await b.call('GET', `/api/projects?q=${w}&minPosition=${position}`, { key: false })).json;
    const last = first.projects[2].slug as string;
    const latencies: number[] = [];
    for (const [i, pinned] of [last, first.projects[1].slug, last].entries()) {
      const put = await a.call('PUT', '/api/search/pins', {
        body: { pins: [{ query: w, first: [pinned], hide: [] }] },
      });
      expect(put.status, put.text).toBe(200);
      const sent = Date.now();
      for (;;) {
        const r = await b.call('GET', `/api/projects?q=${w}&limit=1`, { key: false });
        if (r.json.projects[0]?.slug === pinned) break;
        expect(Date.now() - sent, `round ${i}`).toBeLessThan(1000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      latencies.push(Date.now() - sent);
      const got = await b.call('GET', '/api/search/pins', { key: false });
      expect(got.json.pins).toEqual([{ query: w, first: [pinned], hide: [] }]);
    }
    console.log(`pins seen by the other process after ${latencies.join(', ')} ms`);
  });
});
