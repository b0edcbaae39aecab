import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/*
 * Relevance over HTTP, on each database (docs/search.md#ranking-rules): the sample projects among
 * near misses written through endpoint 1, the matching strategy with `dropped`, split and join,
 * `explain=1`, and standing from signals deciding what the text leaves tied.
 */

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, any>[];

const NEAR = [
  { name: 'Ollama Chat 92', description: '一个 Ollama 的聊天界面，在浏览器里用。' },
  { name: '千问插件 872', description: '通义千问的浏览器插件，划词即问。' },
  { name: 'ComfyUI 笔记 17', description: 'ComfyUI 的学习笔记与示例工作流。' },
  { name: 'Vector Kit Alpha', description: '一套向量检索的小工具集合。', signals: { stars: 5 } },
  {
    name: 'Vector Kit Omega',
    description: '一套向量检索的小工具集合。',
    signals: { stars: 50_000, downloads: 1_000_000 },
  },
].map((p, i) => ({
  ...p,
  tags: [{ name: '示例', nameEn: 'Example' }],
  links: [{ type: 'CODEHOST', url: `https://github.com/near-miss-${i}/repo` }],
}));

describe.each(targets)('relevance on $name', (target) => {
  const s = useServer(target);
  beforeAll(async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: [...SAMPLE, ...NEAR] } });
    expect(r.json.created, JSON.stringify(r.json).slice(0, 300)).toBe(SAMPLE.length + NEAR.length);
  });
  const list = (params: Record<string, string>) =>
    s.call('GET', `/api/projects?${new URLSearchParams({ limit: '5', ...params })}`, { key: false });
  const first = async (q: string) => (await list({ q })).json.projects[0]?.name;

  it('the project meant comes first among the near misses', async () => {
    expect(await first('ollama')).toBe('Ollama 本地模型运行器');
    expect(await first('olama')).toBe('Ollama 本地模型运行器');
    expect(await first('千问')).toBe('通义千问');
    expect(await first('comfy')).toBe('ComfyUI 节点式工作流');
  });

  it('matchingStrategy: last (default) and frequency leave words out and say which; all does not', async () => {
    const last = await list({ q: 'kimi 长文本' });
    expect(last.status).toBe(200);
    expect(last.json.dropped).toEqual(['长文本']);
    expect(last.json.projects[0].name).toBe('月之暗面 Kimi');
    const all = await list({ q: 'kimi 长文本', matchingStrategy: 'all' });
    expect([all.json.total, all.json.dropped]).toEqual([0, undefined]);
    // 开源 matches many projects, kimi one: frequency leaves 开源 out
    const freq = await list({ q: 'kimi 开源 zzqqxx', matchingStrategy: 'frequency' });
    expect(freq.json.projects[0].name).toBe('月之暗面 Kimi');
    const bad = await list({ q: 'kimi', matchingStrategy: 'most' });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0]).toMatch(/^matchingStrategy: /);
  });

  it('split and join, both ways: gpt4o and llamacpp split, comfy ui and chat glm join', async () => {
    expect(await first('gpt4o')).toBe('GPT-4o');
    expect(await first('gpt 4o')).toBe('GPT-4o');
    expect(await first('llamacpp')).toBe('llama.cpp');
    expect(await first('comfy ui')).toBe('ComfyUI 节点式工作流');
  });

  it('explain=1 tells each rule; standing from signals orders what the text leaves tied', async () => {
    const r = await list({ q: 'vector kit', explain: '1' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const [a, b] = r.json.projects;
    expect([a.name, b.name]).toEqual(['Vector Kit Omega', 'Vector Kit Alpha']);
    expect(Object.keys(a.match.rules)).toEqual([
      'words',
      'typo',
      'proximity',
      'attribute',
      'exactness',
      'coverage',
      'standing',
    ]);
    expect(a.match.rules.standing).toBeGreaterThan(b.match.rules.standing);
    expect(a.match.score).toBe(b.match.score);
    // a cursor goes on after them in the same order
    const one = await list({ q: 'vector kit', limit: '1' });
    const next = await list({ q: 'vector kit', limit: '1', cursor: one.json.nextCursor });
    expect([one.json.projects[0].name, next.json.projects[0].name]).toEqual([
      'Vector Kit Omega',
      'Vector Kit Alpha',
    ]);
  });
});
