import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

// Search as a search engine (docs/search.md#search-as-a-search-engine) on the read model: typos, synonyms,
// unknown parameters, positions, ETags.

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, any>[];

describe.each(targets)('search as a search engine on $name', (target) => {
  const s = useServer(target);
  beforeAll(async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: SAMPLE } });
    expect(r.json.created).toBe(SAMPLE.length);
  });

  const find = (query: string) => s.call('GET', `/api/projects?${query}`, { key: false });
  const names = (r: { json: any }) => r.json.projects.map((p: any) => p.name);

  describe('typo tolerance', () => {
    // [what, q, a name expected among the matches, its typos]
    const table: [string, string, string, number][] = [
      ['one substitution in a 9-letter word', 'difusion', 'Stable Diffusion WebUI 绘图界面', 1],
      ['a transposition', 'lnagchain', 'LangChain 应用框架', 1],
      ['two edits in a long word', 'tongyiqiawenn', '通义千问', 2],
      ['a deletion in pinyin', 'tongyqianwen', '通义千问', 1],
    ];
    it.each(table)('%s: %s', async (_what, q, name, typos) => {
      const r = await find(`q=${encodeURIComponent(q)}&limit=100`);
      expect(r.status).toBe(200);
      const hit = r.json.projects.find((p: any) => p.name === name);
      expect(hit, JSON.stringify(names(r))).toBeDefined();
      expect(hit.match.typos).toBe(typos);
      // typos=false turns it off for the request
      const exact = await find(`q=${encodeURIComponent(q)}&typos=false`);
      expect(names(exact)).not.toContain(name);
    });

    it('short words match exactly, and deepseek does not match DeepSpeed', async () => {
      await s.call('POST', '/api/webhook/projects', {
        body: {
          projects: [
            project({ name: 'DeepSpeed 训练库', nameEn: 'DeepSpeed', description: 'Distributed training.' }),
          ],
        },
      });
      const r = await find('q=deepseek&limit=100');
      expect(names(r).some((n: string) => n.includes('DeepSeek'))).toBe(true);
      expect(names(r).some((n: string) => n.includes('DeepSpeed'))).toBe(false);
      // 4 letters: no typo allowed
      expect((await find('q=lnag')).json.total).toBe(0);
    });

    it('ranks every match without typos above every match with typos', async () => {
      const r = await find('q=diffusion&limit=100');
      const typos = r.json.projects.map((p: any) => p.match.typos);
      expect(typos).toEqual([...typos].sort((a, b) => a - b));
      expect(r.json.totalExact).toBe(true);
    });
  });

  describe('synonyms', () => {
    afterAll(async () => {
      await s.call('PUT', '/api/search/synonyms', { body: { sets: [] } });
    });

    it('are stored, listed, applied at once, ranked just below the word itself', async () => {
      const before = await find(`q=${encodeURIComponent('大模型')}&limit=100`);
      const put = await s.call('PUT', '/api/search/synonyms', {
        body: {
          sets: [
            ['大模型', '大语言模型', 'LLM'],
            ['向量库', 'vector database'],
          ],
        },
      });
      expect(put.status, put.text).toBe(200);
      expect(put.json).toEqual({
        success: true,
        sets: [
          ['大模型', '大语言模型', 'LLM'],
          ['向量库', 'vector database'],
        ],
      });
      const got = await s.call('GET', '/api/search/synonyms', { key: false });
      expect(got.json.sets).toEqual(put.json.sets);

      const after = await find(`q=${encodeURIComponent('大模型')}&limit=100`);
      expect(after.json.total).toBeGreaterThan(before.json.total);
      // a match by a synonym only scores one below the same match of the word itself
      const direct = new Set(names(before));
      const bySynonym = after.json.projects.filter((p: any) => !direct.has(p.name));
      expect(bySynonym.length).toBeGreaterThan(0);
      for (const p of bySynonym) expect([99, 79, 59, 39, 19]).toContain(p.match.score);
      const scores = after.json.projects.map((p: any) => p.match.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      // a term of several words
      const multi = await find(`q=${encodeURIComponent('向量库')}&limit=100`);
      expect(multi.json.total).toBeGreaterThan(0);
    });

    it('refuses a term in two sets, too many terms, no key', async () => {
      const twice = await s.call('PUT', '/api/search/synonyms', {
        body: {
          sets: [
            ['llm', 'GPT'],
            ['LLM', '大模型'],
          ],
        },
      });
      expect(twice.status).toBe(400);
      expect(twice.json.details[0]).toMatch(/^sets\.1\.0: "LLM" is already a term of set 0/);
      const one = await s.call('PUT', '/api/search/synonyms', { body: { sets: [['solo']] } });
      expect(one.status).toBe(400);
      const noKey = await s.call('PUT', '/api/search/synonyms', { body: { sets: [] }, key: false });
      expect(noKey.status).toBe(401);
    });
  });

  it('unknown query parameters are 400, naming the one meant', async () => {
    const r = await find('query=qwen');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      success: false,
      error: 'Validation error',
      details: ['query: unknown parameter "query"; did you mean "q"?'],
    });
    const tags = await s.call('GET', '/api/tags?sorting=name', { key: false });
    expect(tags.status).toBe(400);
    expect(tags.json.details).toEqual(['query: unknown parameter "sorting"; did you mean "sort"?']);
  });

  describe('positions', () => {
    it('a write answers with its position; reads carry theirs; minPosition of it is answered', async () => {
      const p = project();
      const w = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
      const position = w.headers.get('x-directory-position');
      expect(position).toMatch(/^[A-Za-z0-9_-]+$/);
      const r = await find(`q=${encodeURIComponent(p.nameEn)}&minPosition=${position}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-directory-position')).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(names(r)).toContain(p.name);
      const tags = await s.call('GET', `/api/tags?minPosition=${position}`, { key: false });
      expect(tags.status).toBe(200);
    });

    it('a position the process has not reached is 503 with Retry-After after the wait', async () => {
      const far = Buffer.from('p1.99999999999').toString('base64url');
      const started = Date.now();
      const r = await find(`minPosition=${far}`);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.json.error).toBe('Service Unavailable');
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      const bad = await find('minPosition=nonsense!');
      expect(bad.status).toBe(400);
    }, 15_000);
  });

  it('GET by slug has an ETag; If-None-Match answers 304 until the project changes', async () => {
    const p = project();
    const w = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const slug = w.json.results[0].slug;
    const first = await s.call('GET', `/api/projects/${slug}`, { key: false });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await s.call('GET', `/api/projects/${slug}`, {
      key: false,
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...p, description: 'Changed by a second write.' }] },
    });
    const changed = await s.call('GET', `/api/projects/${slug}`, {
      key: false,
      headers: { 'if-none-match': etag! },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.data.description).toBe('Changed by a second write.');
  });

  it('a write is visible to every read of the process that answered it', async () => {
    const tag = { name: `新标签${Date.now()}`, nameEn: 'Fresh tag' };
    // a word of its own (other projects' names share words and number prefixes with project()'s)
    const word = `visible${Date.now().toString(36).replace(/\d/g, 'z')}`;
    const p = project({ nameEn: `Visible ${word}`, tags: [tag] });
    // asked before the write, the same query's kept answer must not outlive it
    const asked = await find(`q=${word}`);
    expect(asked.json.total).toBe(0);
    expect((await find(`q=${word}`)).headers.get('etag')).toBe(asked.headers.get('etag'));
    const w = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const slug = w.json.results[0].slug;
    expect((await s.call('GET', `/api/projects/${slug}`, { key: false })).status).toBe(200);
    expect(names(await find(`q=${word}`))).toEqual([p.name]);
    const tags = await s.call('GET', `/api/tags?q=${encodeURIComponent(tag.name)}`, { key: false });
    expect(tags.json.tags).toEqual([expect.objectContaining({ name: tag.name, projectCount: 1 })]);
    const del = await s.call('DELETE', `/api/projects/${slug}`);
    expect(del.status).toBe(200);
    expect((await s.call('GET', `/api/projects/${slug}`, { key: false })).status).toBe(404);
    expect(names(await find(`q=${word}`))).toEqual([]);
  });
});
