import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { project, type Reply, targets, useServer } from './helpers.ts';
import { qs } from './query-string.ts';

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, any>[];

describe.each(targets)('browse and search on $name', (target) => {
  const s = useServer(target);
  beforeAll(async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: SAMPLE } });
    expect(r.json.created).toBe(SAMPLE.length);
  });

  const list = (params: Record<string, string | number | string[] | undefined>) =>
    s.call('GET', `/api/projects?${qs(params)}`, { key: false });

  describe('relevance on the 40 sample projects', () => {
    // [what, q, names expected first (in any order among themselves), field of the first, exact count?]
    const table: [string, string, string[], string, number?][] = [
      ['two-character Chinese word in a name', '通义', ['通义千问'], 'name'],
      [
        'two-character word in two names',
        '向量',
        ['Milvus 向量数据库', 'Chroma 向量数据库', '智源 BGE 向量模型'],
        'name',
      ],
      ['single Chinese character', '桨', ['飞桨', '飞桨文字识别 PaddleOCR'], 'name'],
      ['full pinyin', 'tongyiqianwen', ['通义千问'], 'pinyin', 1],
      ['pinyin (equal to the slug)', 'feijiang', ['飞桨'], 'slug'],
      ['pinyin prefix', 'tongyi', ['通义千问'], 'pinyin'],
      ['pinyin initials', 'tyqw', ['通义千问'], 'initials', 1],
      ['English word', 'diffusion', ['Stable Diffusion WebUI 绘图界面', '稳定扩散 Stable Diffusion'], 'name'],
      ['English prefix', 'lang', ['LangChain 应用框架'], 'name'],
      ['slug', 'deepseek-v3', ['深度求索 DeepSeek-V3'], 'nameEn'],
      ['several Chinese words', '向量 数据库', ['Milvus 向量数据库', 'Chroma 向量数据库'], 'name'],
      ['mixed Chinese and English', '语音 whisper', ['Whisper 语音识别'], 'name', 1],
      ['a tag only', '评测', ['C-Eval 中文评测基准'], 'name'],
      ['no match', 'zzqqxx', [], '', 0],
    ];
    it.each(table)('%s: %s', async (_what, q, first, field, count) => {
      const r = await list({ q, limit: 100 });
      expect(r.status).toBe(200);
      const names = r.json.projects.map((p: any) => p.name);
      expect(new Set(names.slice(0, first.length))).toEqual(new Set(first));
      if (first.length) expect(r.json.projects[0].match.field).toBe(field);
      if (count !== undefined) expect(r.json.total).toBe(count);
      // scores never increase down the list
      const scores = r.json.projects.map((p: any) => p.match.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('ranks exact, then prefix, then inside the name, then a tag, then the description', async () => {
      const exact = (await list({ q: '飞桨' })).json.projects;
      expect(exact.map((p: any) => [p.name, p.match.score])).toEqual(
        expect.arrayContaining([
          ['飞桨', 100],
          // Chinese alone has no prefix tier (docs/search.md#ranking-rules): inside the name
          ['飞桨文字识别 PaddleOCR', 60],
        ]),
      );
      expect(exact[0].name).toBe('飞桨');
      const prefix = (await list({ q: 'paddle' })).json.projects;
      expect([prefix[0].name, prefix[0].match.score]).toEqual(['飞桨文字识别 PaddleOCR', 80]);
      const tagged = (await list({ q: '智能体', limit: 100 })).json.projects;
      expect(tagged.every((p: any) => p.match.score <= 40)).toBe(true);
      expect(tagged.some((p: any) => p.match.field === 'tags')).toBe(true);
    });

    it('sorts Chinese names by pinyin', async () => {
      const names = (await list({ sort: 'name', limit: 100 })).json.projects.map((p: any) => p.name);
      expect(names.indexOf('百川大模型')).toBeLessThan(names.indexOf('ChatTTS 对话语音合成'));
      expect(names.indexOf('通义千问')).toBeGreaterThan(names.indexOf('Stable Diffusion WebUI 绘图界面'));
    });

    it('filters by status, tag (all/any), link type and source, and counts facets', async () => {
      const archived = await list({ status: 'ARCHIVED' });
      expect(archived.json.projects.map((p: any) => p.name).sort()).toEqual([
        'GPT-2 语言模型',
        '羊驼 Llama 2',
      ]);
      const both = await list({ tag: ['speech', 'open-source'], limit: 100 });
      expect(both.json.projects.map((p: any) => p.name).sort()).toEqual([
        'ChatTTS 对话语音合成',
        'Whisper 语音识别',
      ]);
      const any = await list({ tag: ['speech', 'evaluation'], tagMode: 'any', limit: 100 });
      expect(any.json.total).toBe(3);
      const none = await list({ tag: ['speech', 'no-such-tag'] });
      expect(none.json.total).toBe(0);
      const faceted = await list({ q: '模型', status: 'ARCHIVED', facets: 'status,tags,linkTypes' });
      // the status facet ignores the status filter
      expect(faceted.json.facets.status.reduce((n: number, f: any) => n + f.count, 0)).toBe(
        (await list({ q: '模型' })).json.total,
      );
      expect(faceted.json.facets.tags.length).toBeGreaterThan(0);
    });
  });

  describe('bad parameters are 400 in the envelope', () => {
    const bad: [string, Record<string, string | number>][] = [
      ['unknown sort', { sort: 'popularity' }],
      ['relevance without q', { sort: 'relevance' }],
      ['limit 0', { limit: 0 }],
      ['limit 101', { limit: 101 }],
      ['limit 1.5', { limit: '1.5' }],
      ['forged cursor', { cursor: 'eyJxIjoiYSIsImsiOjEsImkiOiJ4In0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['garbage cursor', { cursor: '%%%' }],
      ['q over 200 characters', { q: '模'.repeat(201) }],
      ['invalid timestamp', { updatedAfter: '2026-13-45' }],
      ['unknown facet', { facets: 'colours' }],
      ['unknown status', { status: 'DELETED' }],
      ['unknown link type', { linkType: 'BLOG' }],
    ];
    it.each(bad)('%s', async (_what, params) => {
      const r = await list(params);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ success: false, error: 'Validation error' });
    });

    it('refuses a cursor from another query, and one with a changed byte', async () => {
      const first = await list({ q: '模型', limit: 2 });
      const cursor: string = first.json.nextCursor;
      expect(cursor).toBeTruthy();
      expect((await list({ q: '模型', limit: 5, cursor })).status).toBe(200);
      const other = await list({ q: '向量', limit: 2, cursor });
      expect(other.status).toBe(400);
      expect(other.json.details[0]).toMatch(/another query/);
      expect((await list({ q: '模型', sort: 'name', cursor })).status).toBe(400);
      const [payload, mac] = cursor.split('.') as [string, string];
      const flipped = `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
      expect((await list({ q: '模型', cursor: flipped })).status).toBe(400);
      const tags = await s.call('GET', `/api/tags?${qs({ cursor })}`, { key: false });
      expect(tags.status).toBe(400);
    });
  });

  it('lists tags by count and by name, searchable by pinyin and initials', async () => {
    const byCount = await s.call('GET', '/api/tags?limit=3', { key: false });
    expect(byCount.json.tags[0]).toMatchObject({ slug: 'open-source', projectCount: 36 });
    expect(byCount.json.hasMore).toBe(true);
    expect(byCount.headers.get('link')).toMatch(/rel="next"/);
    const rest = await s.call('GET', `/api/tags?limit=100&cursor=${byCount.json.nextCursor}`, { key: false });
    const all = [...byCount.json.tags, ...rest.json.tags];
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    const pinyin = await s.call('GET', `/api/tags?q=xiangliang`, { key: false });
    expect(pinyin.json.tags.map((t: any) => t.name)).toEqual(['向量数据库']);
    const initials = await s.call('GET', `/api/tags?q=dmt`, { key: false });
    expect(initials.json.tags.map((t: any) => t.name)).toContain('多模态');
  });

  it('walks pages with a Link header and no repeats', async () => {
    const seen: string[] = [];
    let path: string | null = '/api/projects?limit=7&sort=name';
    while (path) {
      const r: Reply = await s.call('GET', path, { key: false });
      expect(r.status).toBe(200);
      seen.push(...r.json.projects.map((p: any) => p.id));
      const link: string | null = r.headers.get('link');
      expect(Boolean(link)).toBe(r.json.hasMore);
      path = link ? /<([^>]+)>/.exec(link)![1]! : null;
    }
    expect(seen.length).toBe(SAMPLE.length);
    expect(new Set(seen).size).toBe(SAMPLE.length);
  });

  it('lists each project at most once while others are inserted and updated', async () => {
    for (const sort of ['updated', 'name', 'created'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let cursor: string | undefined;
        let writes = 0;
        do {
          const r = await list({ sort, order, limit: 5, cursor });
          expect(r.status).toBe(200);
          seen.push(...r.json.projects.map((p: any) => p.id));
          cursor = r.json.nextCursor ?? undefined;
          // between pages: update a project seen already (renamed, so that it moves) and insert one
          const again = SAMPLE[writes % SAMPLE.length]!;
          await Promise.all([
            s.call('POST', '/api/webhook/projects', {
              body: { projects: [{ ...again, name: `${again.name} 改 ${writes}` }] },
            }),
            s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } }),
          ]);
          writes++;
        } while (cursor);
        expect(new Set(seen).size, `${sort} ${order}`).toBe(seen.length);
      }
    }
  });
});

describe.each(targets)('a tag’s English name is searchable on $name', (target) => {
  const s = useServer(target);

  it('finds a project by its tag’s stored nameEn when its own input left the nameEn out', async () => {
    const tag = { name: '专属标签甲', nameEn: 'Quokkatag' };
    const first = project({ tags: [tag] });
    const second = project({ tags: [{ name: tag.name }] });
    for (const p of [first, second])
      expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } })).json.created).toBe(
        1,
      );
    const r = await s.call('GET', '/api/projects?q=quokkatag', { key: false });
    expect(r.json.projects.map((p: any) => p.name).sort()).toEqual([first.name, second.name].sort());
    expect(r.json.projects.map((p: any) => p.match.field)).toEqual(['tags', 'tags']);
  });

  it('finds projects tagged before their tag got its English name', async () => {
    const name = '后补标签乙';
    const early = project({ tags: [{ name }] });
    expect(
      (await s.call('POST', '/api/webhook/projects', { body: { projects: [early] } })).json.created,
    ).toBe(1);
    const before = await s.call('GET', '/api/projects?q=wombattag', { key: false });
    expect(before.json.projects).toEqual([]);
    // a later project gives the tag its English name: the earlier one is found by it too
    const late = project({ tags: [{ name, nameEn: 'Wombattag' }] });
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [late] } })).json.created).toBe(
      1,
    );
    const r = await s.call('GET', '/api/projects?q=wombattag', { key: false });
    expect(r.json.projects.map((p: any) => p.name).sort()).toEqual([early.name, late.name].sort());
    expect(r.json.projects.map((p: any) => p.match)).toEqual([
      { field: 'tags', score: 40, typos: 0 },
      { field: 'tags', score: 40, typos: 0 },
    ]);
    expect(r.json.total).toBe(2);
  });
});

/*
 * The property: for random filters, sorts and page sizes, walking every page returns exactly
 * what a brute-force filter over all rows returns, each once, in order; facet counts equal a
 * brute-force count. The brute force reads every project through the API and applies the
 * rules of docs/search.md#browsing-and-search-get-apiprojects-get-apitags in plain TypeScript (matching by
 * the terms of search-terms.ts).
 */
