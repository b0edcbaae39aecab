import { beforeAll, describe, expect, it } from 'vitest';
import { bucketScoreOf } from './ranking.ts';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { IndexedProject, ProjectHits, ProjectQuery } from './types.ts';

const base: ProjectQuery = BASE_QUERY;

describe('relevance on the 40 sample projects', () => {
  const index = new SearchIndex();
  const { projects, tags } = toIndexed(SAMPLE);
  const byId = new Map(projects.map((p) => [p.id, p]));
  beforeAll(() => {
    index.putTags(tags);
    index.put(projects);
  });
  const find = (q: Partial<ProjectQuery>) => index.findProjects({ ...base, ...q });
  const names = (r: ProjectHits) => r.hits.map((h) => byId.get(h.id)!.name);

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
    // typos (docs/search.md#search-as-a-search-engine): below every exact match, with match.typos
    ['one typo, transposed letters', 'whipser', ['Whisper 语音识别'], 'name', 1],
    ['one typo in a pinyin name', 'tongyiqianwne', ['通义千问'], 'pinyin', 1],
    ['two typos in a long word', 'trasnformrs', ['Transformers 模型库'], 'name'],
    ['a word starting a longer token', 'langchian', ['LangChain 应用框架'], 'name', 1],
  ];
  it.each(table)('%s: %s', (_what, q, first, field, count) => {
    const r = find({ q });
    expect(new Set(names(r).slice(0, first.length))).toEqual(new Set(first));
    if (first.length) expect(r.hits[0]!.match!.field).toBe(field);
    if (count !== undefined) expect(r.total).toBe(count);
    // scores never increase down the list
    const scores = r.hits.map((h) => h.match!.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.hits.map((h) => bucketScoreOf(Number(h.key)))).toEqual(scores);
  });

  it('ranks exact, then prefix, then inside the name, then a tag, then the description', () => {
    // Chinese alone: the name equal to it, then inside a name (no prefix tier: rules/exactness.ts)
    const exact = find({ q: '飞桨' }).hits.map((h) => [byId.get(h.id)!.name, h.match!.score]);
    expect(exact).toEqual(
      expect.arrayContaining([
        ['飞桨', 100],
        ['飞桨文字识别 PaddleOCR', 60],
      ]),
    );
    const prefix = find({ q: 'paddle' }).hits.map((h) => [byId.get(h.id)!.name, h.match!.score]);
    expect(prefix[0]).toEqual(['飞桨文字识别 PaddleOCR', 80]);
    expect(exact[0]![0]).toBe('飞桨');
    const tagged = find({ q: '智能体' }).hits;
    expect(tagged.every((h) => h.match!.score <= 40)).toBe(true);
    expect(tagged.some((h) => h.match!.field === 'tags')).toBe(true);
  });

  it('typos: short words, digits and Chinese match exactly; typos=false turns them off; deepseek is not DeepSpeed', () => {
    expect(find({ q: 'whipser', typos: false }).total).toBe(0);
    const typo = find({ q: 'whipser' }).hits[0]!;
    expect(typo.match).toEqual({ field: 'name', score: 15, typos: 1 });
    // four letters: exact only
    expect(find({ q: 'lnag' }).total).toBe(0);
    expect(find({ q: 'chroma' }).total).toBe(find({ q: 'chroma', typos: false }).total);
    const deepseek = names(find({ q: 'deepseek' }));
    expect(deepseek.length).toBeGreaterThan(0);
    expect(deepseek).not.toContain('DeepSpeed 深度学习优化库');
    expect(names(find({ q: 'deepspeed' }))).toContain('DeepSpeed 深度学习优化库');
  });

  it('every match without typos ranks above every match with typos', () => {
    // "model" (5 letters): exact in many descriptions, one edit from "modal" of "multimodal"
    const r = find({ q: 'modal' });
    const typos = r.hits.map((h) => h.match!.typos);
    const firstTypo = typos.indexOf(1);
    expect(firstTypo).toBeGreaterThan(0);
    expect(typos.slice(firstTypo).every((t) => t > 0)).toBe(true);
    expect(Math.min(...r.hits.slice(0, firstTypo).map((h) => h.match!.score))).toBeGreaterThan(
      Math.max(...r.hits.slice(firstTypo).map((h) => h.match!.score)),
    );
  });

  it('synonyms: a word equal to a term matches as any term of its set, just below the word itself', () => {
    const before = names(find({ q: '大模型' }));
    index.setSynonyms([['大模型', '大语言模型', 'LLM']]);
    try {
      const r = find({ q: '大模型' });
      const after = names(r);
      const tagged = projects.filter((p) => p.tagIds.includes(tags.find((t) => t.name === '大语言模型')!.id));
      for (const p of tagged) expect(after).toContain(p.name);
      expect(after.length).toBeGreaterThan(before.length);
      // the word itself in a name (60) ranks above the synonym in a name (59) above a tag (40)
      const scoreOf = (name: string) => r.hits.find((h) => byId.get(h.id)!.name === name)!.match!.score;
      expect(scoreOf('百川大模型')).toBe(60);
      expect(scoreOf('Dify 大模型应用开发平台')).toBe(60);
      expect(scoreOf('GPT-2 语言模型')).toBeLessThan(60);
      const llm = find({ q: 'llm' });
      expect(names(llm)).toEqual(expect.arrayContaining(tagged.map((p) => p.name)));
      // case-insensitive, and the synonym of a tag is the tag class, just below
      expect(find({ q: 'LLM' }).total).toBe(llm.total);
      expect(find({ q: 'llm', typos: false }).hits.every((h) => h.match!.score >= 19)).toBe(true);
    } finally {
      index.setSynonyms([]);
    }
    expect(names(find({ q: '大模型' }))).toEqual(before);
  });

  it('sorts Chinese names by pinyin', () => {
    const all = names(find({ q: undefined, sort: 'name', order: 'asc' }));
    expect(all.length).toBe(40);
    expect(all.indexOf('百川大模型')).toBeLessThan(all.indexOf('ChatTTS 对话语音合成'));
    expect(all.indexOf('通义千问')).toBeGreaterThan(all.indexOf('Stable Diffusion WebUI 绘图界面'));
  });

  it('filters by status, tag (all/any), link type and source, and counts facets', () => {
    const list = (q: Partial<ProjectQuery>) => find({ sort: 'updated', ...q });
    expect(names(list({ status: 'ARCHIVED' })).sort()).toEqual(['GPT-2 语言模型', '羊驼 Llama 2']);
    expect(names(list({ tagSlugs: ['speech', 'open-source'] })).sort()).toEqual([
      'ChatTTS 对话语音合成',
      'Whisper 语音识别',
    ]);
    expect(list({ tagSlugs: ['speech', 'evaluation'], tagMode: 'any' }).total).toBe(3);
    expect(list({ tagSlugs: ['speech', 'no-such-tag'] }).total).toBe(0);
    const faceted = find({ q: '模型', status: 'ARCHIVED', facets: ['status', 'tags', 'linkTypes'] });
    expect(faceted.facets!.status!.reduce((n, f) => n + f.count, 0)).toBe(find({ q: '模型' }).total);
    expect(faceted.facets!.tags!.length).toBeGreaterThan(0);
    const whole = list({ facets: ['status', 'tags', 'linkTypes'] }).facets!;
    expect(whole.status).toEqual([
      { value: 'ACTIVE', count: 38 },
      { value: 'ARCHIVED', count: 2 },
    ]);
    expect(whole.tags![0]).toMatchObject({ slug: 'open-source', count: 36 });
  });

  it('lists tags by count and by name, searchable by pinyin and initials', () => {
    const tagName = (id: string) => tags.find((t) => t.id === id)!.name;
    const byCount = index.findTags({ sort: 'count', limit: 3 });
    expect(byCount.hits[0]).toMatchObject({ projectCount: 36, key: 36 });
    expect(tagName(byCount.hits[0]!.id)).toBe('开源');
    expect(byCount.hits.length).toBe(4);
    const last = byCount.hits[2]!;
    const rest = index.findTags({ sort: 'count', limit: 100, after: { key: last.key, id: last.id } });
    const all = [...byCount.hits.slice(0, 3), ...rest.hits];
    expect(new Set(all.map((t) => t.id)).size).toBe(tags.length);
    expect(
      index.findTags({ q: 'xiangliang', sort: 'count', limit: 50 }).hits.map((t) => tagName(t.id)),
    ).toEqual(['向量数据库']);
    expect(index.findTags({ q: 'dmt', sort: 'count', limit: 50 }).hits.map((t) => tagName(t.id))).toContain(
      '多模态',
    );
  });

  it('a renamed tag is matched by its new text at once', () => {
    const tag = tags.find((t) => t.name === '评测')!;
    index.putTags([{ ...tag, nameEn: 'Quokkabench' }]);
    try {
      expect(names(find({ q: 'quokkabench' }))).toEqual(['C-Eval 中文评测基准']);
      expect(find({ q: 'quokkabench' }).hits[0]!.match).toEqual({ field: 'tags', score: 40, typos: 0 });
    } finally {
      index.putTags([tag]);
    }
    expect(find({ q: 'quokkabench' }).total).toBe(0);
  });

  it('updates and removals are seen by the next query', () => {
    const p = projects[0]!;
    const renamed: IndexedProject = { ...p, name: '通义万相', updatedAt: p.updatedAt + 1e9 };
    index.put([renamed]);
    expect(find({ q: '万相' }).hits.map((h) => h.id)).toEqual([p.id]);
    expect(find({ q: 'tongyiqianwen' }).total).toBe(0);
    expect(find({ sort: 'updated', limit: 1 }).hits[0]!.id).toBe(p.id);
    index.remove([p.id, 'no-such-id']);
    expect(find({ q: '万相' }).total).toBe(0);
    expect(index.stats().projects).toBe(39);
    index.put([p]);
    expect(names(find({ q: 'tongyiqianwen' }))).toEqual(['通义千问']);
    expect(index.stats().projects).toBe(40);
  });
});
