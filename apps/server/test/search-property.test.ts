import { nameSortKey, projectSearchColumns, searchQuery } from '@directory/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { project, targets, uniqueUrl, useServer } from './helpers.ts';
import { qs } from './query-string.ts';

// Random projects and queries against a brute force over the API (the rest of search in search.test.ts).
describe.each(targets)('search property on $name', (target) => {
  const s = useServer(target);
  const TAGS = [
    { name: '大模型', nameEn: 'LLM' },
    { name: '向量数据库', nameEn: 'Vector Database' },
    { name: '开源', nameEn: 'Open Source' },
    { name: '语音', nameEn: 'Speech' },
    { name: '智能体' },
  ];
  const WORDS = ['通义', '模型', '向量', 'deep', 'vision', '飞桨', 'alpha', '数据', 'lang', '语音'];
  const TYPES = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'] as const;
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const some = <T>(xs: readonly T[], max: number) => {
    const n = Math.floor(rand() * (max + 1));
    return [...new Set(Array.from({ length: n }, () => pick(xs)))];
  };

  const all: any[] = [];
  beforeAll(async () => {
    const projects = Array.from({ length: 45 }, (_, i) => ({
      name: `${pick(WORDS)}${pick(WORDS)} ${i}`,
      nameEn: rand() < 0.5 ? `${pick(WORDS)} ${pick(WORDS)} en ${i}` : undefined,
      description: `${pick(WORDS)}，${pick(WORDS)} and ${pick(WORDS)} — project ${i}.`,
      status: rand() < 0.3 ? 'ARCHIVED' : 'ACTIVE',
      source: pick(['crawler', 'manual', undefined]),
      tags: some(TAGS, 3).length ? some(TAGS, 3).concat([]) : [TAGS[0]!],
      links: (() => {
        const types = some(TYPES, 3);
        return (types.length ? types : ['WEBSITE' as const]).map((type) => ({ type, url: uniqueUrl(type) }));
      })(),
    }));
    for (const p of projects) {
      if (p.tags.length === 0) p.tags = [TAGS[0]!];
    }
    // a few batches, so that timestamps of one batch tie to the millisecond
    for (let i = 0; i < projects.length; i += 9)
      expect(
        (await s.call('POST', '/api/webhook/projects', { body: { projects: projects.slice(i, i + 9) } }))
          .status,
      ).toBe(200);
    let cursor: string | undefined;
    do {
      const r = await s.call(
        'GET',
        `/api/projects?${qs({ limit: 100, cursor, sort: 'created', order: 'asc' })}`,
        {
          key: false,
        },
      );
      all.push(...r.json.projects);
      cursor = r.json.nextCursor ?? undefined;
    } while (cursor);
    expect(all.length).toBe(projects.length);
  });

  interface Filters {
    q?: string;
    status: 'ACTIVE' | 'ARCHIVED' | 'ALL';
    tag: string[];
    tagMode: 'all' | 'any';
    linkType: string[];
    source?: string;
  }

  /** The match class (3 name, 2 tag, 1 description) and score of a project for q, or 0. */
  function scoreOf(p: any, q: string): number {
    const search = searchQuery(q)!;
    const cols = projectSearchColumns({ ...p, tags: p.tags });
    const cls = Math.min(
      ...search.patterns.map((t) =>
        cols.search_name.includes(t)
          ? 3
          : cols.search_tags.includes(t)
            ? 2
            : cols.search_desc.includes(t)
              ? 1
              : 0,
      ),
    );
    if (cls === 0) return 0;
    if (cols.search_keys.includes(search.whole)) return 100;
    if (cols.search_keys.some((k) => k !== '' && k.startsWith(search.whole))) return 80;
    return 20 * cls;
  }

  function matches(p: any, f: Filters, ignore?: 'status' | 'tags' | 'linkTypes'): boolean {
    if (f.q !== undefined && scoreOf(p, f.q) === 0) return false;
    if (ignore !== 'status' && f.status !== 'ALL' && p.status !== f.status) return false;
    const slugs = p.tags.map((t: any) => t.slug);
    if (ignore !== 'tags' && f.tag.length) {
      if (f.tagMode === 'all' && !f.tag.every((t) => slugs.includes(t))) return false;
      if (f.tagMode === 'any' && !f.tag.some((t) => slugs.includes(t))) return false;
    }
    const types = p.links.map((l: any) => l.type);
    if (ignore !== 'linkTypes' && !f.linkType.every((t) => types.includes(t))) return false;
    if (f.source !== undefined && p.source !== f.source) return false;
    return true;
  }

  const count = (values: string[]) => {
    const m = new Map<string, number>();
    for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
    return m;
  };
  const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('walking every page equals a brute-force filter; facets equal brute-force counts', async () => {
    const tagSlugs = [...new Set(all.flatMap((p) => p.tags.map((t: any) => t.slug)))] as string[];
    for (let run = 0; run < 40; run++) {
      const f: Filters = {
        q: rand() < 0.6 ? `${pick(WORDS)}${rand() < 0.3 ? ` ${pick(WORDS)}` : ''}` : undefined,
        status: pick(['ACTIVE', 'ARCHIVED', 'ALL'] as const),
        tag: some(tagSlugs, 2),
        tagMode: pick(['all', 'any'] as const),
        linkType: some(TYPES, 2),
        source: pick(['crawler', 'manual', undefined, undefined]),
      };
      const sort = f.q && rand() < 0.5 ? 'relevance' : pick(['updated', 'created', 'name'] as const);
      const order = pick(['asc', 'desc'] as const);
      const limit = 1 + Math.floor(rand() * 8);
      const label = JSON.stringify({ ...f, sort, order, limit });

      const walked: any[] = [];
      let cursor: string | undefined;
      let first: any;
      for (let pages = 0; pages < 100; pages++) {
        const r = await s.call(
          'GET',
          `/api/projects?${qs({ ...f, tag: f.tag, linkType: f.linkType, sort, order, limit, cursor, facets: pages === 0 ? 'tags,status,linkTypes' : undefined, matchingStrategy: f.q === undefined ? undefined : 'all' })}`,
          { key: false },
        );
        expect(r.status, label).toBe(200);
        first ??= r.json;
        walked.push(...r.json.projects);
        cursor = r.json.nextCursor ?? undefined;
        if (!cursor) break;
      }

      const expected = all.filter((p) => matches(p, f));
      expect(first.total, label).toBe(expected.length);
      expect(walked.length, label).toBe(expected.length);
      expect(new Set(walked.map((p) => p.id)), label).toEqual(new Set(expected.map((p) => p.id)));
      // order: exact for name (ties by id); by score for relevance (within a score, coverage and
      // standing order the hits: packages/search's property test checks that order exactly); by
      // timestamp for the others (rows of one batch may tie to the millisecond the API shows)
      const sign = order === 'asc' ? 1 : -1;
      const key = (p: any): [number | string, string] =>
        sort === 'relevance'
          ? [p.match.score, p.id]
          : sort === 'name'
            ? [nameSortKey(p.name), p.id]
            : [Date.parse(sort === 'updated' ? p.updatedAt : p.createdAt), p.id];
      for (let i = 1; i < walked.length; i++) {
        const [a, ai] = key(walked[i - 1]);
        const [b, bi] = key(walked[i]);
        const cmp = typeof a === 'number' ? a - (b as number) : bytes(a, b as string);
        if (sort === 'name') {
          const full = cmp !== 0 ? cmp : bytes(ai, bi);
          expect(Math.sign(full) * sign, `${label} at ${i}`).toBe(-1);
        } else {
          expect(cmp * sign, `${label} at ${i}`).toBeLessThanOrEqual(0);
        }
      }

      // facets: each ignores its own filter
      const statusCounts = count(all.filter((p) => matches(p, f, 'status')).map((p) => p.status));
      expect(new Map(first.facets.status.map((x: any) => [x.value, x.count])), label).toEqual(statusCounts);
      const typeCounts = count(
        all
          .filter((p) => matches(p, f, 'linkTypes'))
          .flatMap((p) => [...new Set<string>(p.links.map((l: any) => l.type))]),
      );
      expect(new Map(first.facets.linkTypes.map((x: any) => [x.value, x.count])), label).toEqual(typeCounts);
      const tagCounts = count(
        all.filter((p) => matches(p, f, 'tags')).flatMap((p) => p.tags.map((t: any) => t.slug)),
      );
      expect(new Map(first.facets.tags.map((x: any) => [x.slug, x.count])), label).toEqual(tagCounts);
    }
  });

  it('keeps the maintained counts (total without q, tags projectCount) exact through concurrent writes', async () => {
    // runs last: it changes the data. Concurrent batches retag and archive/unarchive projects,
    // add new ones and delete some; then every count read from the counters equals a count of rows.
    const body = (p: any, i: number) => ({
      name: p.name,
      description: p.description,
      status: p.status === 'ACTIVE' ? 'ARCHIVED' : 'ACTIVE',
      tags: [TAGS[i % TAGS.length]!, TAGS[(i + 2) % TAGS.length]!],
      links: p.links.map((l: any) => ({ type: l.type, url: l.url })),
    });
    const writes = await Promise.all([
      ...[0, 1, 2, 3].map((w) =>
        s.call('POST', '/api/webhook/projects', {
          body: { projects: all.slice(w * 6, w * 6 + 6).map((p, i) => body(p, w + i)) },
        }),
      ),
      s.call('POST', '/api/webhook/projects', {
        body: { projects: Array.from({ length: 5 }, () => ({ ...project(), tags: [TAGS[1]!, TAGS[4]!] })) },
      }),
      ...all.slice(40, 44).map((p) => s.call('DELETE', `/api/projects/${p.slug}`)),
    ]);
    for (const w of writes) expect(w.status).toBe(200);

    const now: any[] = [];
    let cursor: string | undefined;
    do {
      const r = await s.call('GET', `/api/projects?${qs({ limit: 100, cursor, status: 'ALL' })}`, {
        key: false,
      });
      now.push(...r.json.projects);
      cursor = r.json.nextCursor ?? undefined;
    } while (cursor);
    expect(now.length).toBe(all.length + 5 - 4);
    for (const status of ['ALL', 'ACTIVE', 'ARCHIVED'] as const) {
      const r = await s.call('GET', `/api/projects?status=${status}&limit=1`, { key: false });
      expect(r.json.total, status).toBe(now.filter((p) => status === 'ALL' || p.status === status).length);
      expect(r.json.totalExact).toBe(true);
    }
    const tags = await s.call('GET', '/api/tags?limit=100', { key: false });
    const counted = count(now.flatMap((p) => p.tags.map((t: any) => t.slug)));
    for (const t of tags.json.tags) expect(t.projectCount, t.slug).toBe(counted.get(t.slug) ?? 0);
    expect(tags.json.tags.filter((t: any) => t.projectCount > 0).length).toBe(counted.size);
    // facets of the whole directory (read from the counts), and with a status filter (its own)
    for (const status of ['ALL', 'ARCHIVED'] as const) {
      const f = await s.call('GET', `/api/projects?facets=tags,status,linkTypes&limit=1&status=${status}`, {
        key: false,
      });
      const pairs = (xs: any[]) => new Map(xs.map((x) => [x.value ?? x.slug, x.count]));
      expect(pairs(f.json.facets.status)).toEqual(count(now.map((p) => p.status)));
      const shown = now.filter((p) => status === 'ALL' || p.status === status);
      expect(pairs(f.json.facets.tags)).toEqual(count(shown.flatMap((p) => p.tags.map((t: any) => t.slug))));
      expect(pairs(f.json.facets.linkTypes)).toEqual(
        count(shown.flatMap((p) => [...new Set<string>(p.links.map((l: any) => l.type))])),
      );
    }
  });
});
