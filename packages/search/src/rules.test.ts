import { describe, expect, it } from 'vitest';
import { BASE_QUERY } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { IndexedProject, ProjectQuery } from './types.ts';

/*
 * Each ranking rule decides a case the rules before it leave tied (docs/search.md#ranking-rules):
 * every pair below is tied by every rule before the one named, and ordered by it.
 */

let n = 0;
const project = (name: string, extra: Partial<IndexedProject> = {}): IndexedProject => {
  n++;
  return {
    id: `p${String(n).padStart(4, '0')}`,
    name,
    nameEn: null,
    slug: `project-${n}`,
    description: '',
    descriptionEn: null,
    status: 'ACTIVE',
    source: null,
    createdAt: n,
    updatedAt: n,
    tagIds: [],
    linkTypes: [],
    ...extra,
  };
};

function firstOf(projects: IndexedProject[], q: Partial<ProjectQuery>): string[] {
  const ix = new SearchIndex();
  ix.put(projects);
  const byId = new Map(projects.map((p) => [p.id, p.name]));
  return ix.findProjects({ ...BASE_QUERY, ...q }).hits.map((h) => byId.get(h.id)!);
}

describe('the ranking rules, each deciding what the ones before leave tied', () => {
  it('words: the matching strategy keeps the words that match together', () => {
    const ps = [project('ollama desktop'), project('kimi reader')];
    // no project has both words: `last` leaves out the last, `frequency` the most frequent
    expect(firstOf(ps, { q: 'ollama kimi' })).toEqual(['ollama desktop']);
    expect(firstOf(ps, { q: 'ollama kimi', matchingStrategy: 'all' })).toEqual([]);
    const more = [...ps, project('kimi notes')];
    expect(firstOf(more, { q: 'ollama kimi', matchingStrategy: 'frequency' })).toEqual(['ollama desktop']);
  });

  it('typo: fewer typos first (the same field, the same words)', () => {
    expect(firstOf([project('whisker'), project('whisper')], { q: 'whisper' })).toEqual([
      'whisper',
      'whisker',
    ]);
  });

  it('typo: a first letter that differs counts twice', () => {
    // olama: one typo from ollama, two from llama (too many for five letters)
    expect(firstOf([project('llama'), project('ollama')], { q: 'olama' })).toEqual(['ollama']);
  });

  it('proximity: the words adjacent and in order (the whole query starting a key) first', () => {
    const ps = [project('chat tool for glm'), project('chat glm tool')];
    expect(firstOf(ps, { q: 'chat glm' })[0]).toBe('chat glm tool');
  });

  it('attribute: a name before a tag before a description', () => {
    const ps = [project('alpha', { description: 'beta inside' }), project('gamma beta')];
    expect(firstOf(ps, { q: 'beta' })).toEqual(['gamma beta', 'alpha']);
  });

  it('exactness: the name equal to the query, then starting with it, then neither', () => {
    const ps = [project('my comfy'), project('comfy'), project('comfy tool')];
    expect(firstOf(ps, { q: 'comfy' })).toEqual(['comfy', 'comfy tool', 'my comfy']);
  });

  it('exactness: Chinese alone has no prefix tier, so coverage decides', () => {
    const ps = [project('千问插件 872'), project('通义千问')];
    expect(firstOf(ps, { q: '千问' })).toEqual(['通义千问', '千问插件 872']);
  });

  it('coverage: of two names that contain the query alike, the shorter first', () => {
    const ps = [project('my ollama chat 92'), project('my ollama')];
    expect(firstOf(ps, { q: 'ollama' })).toEqual(['my ollama', 'my ollama chat 92']);
  });

  it('standing: of two names alike, the higher standing first', () => {
    const ps = [project('vector store a', { standing: 10 }), project('vector store b', { standing: 200 })];
    expect(firstOf(ps, { q: 'vector' })).toEqual(['vector store b', 'vector store a']);
  });

  it('then id: all else tied, the higher id first (the order of a page: desc)', () => {
    const ps = [project('same name x'), project('same name y')];
    expect(firstOf(ps, { q: 'same' })).toEqual(['same name y', 'same name x']);
    expect(firstOf(ps, { q: 'same', order: 'asc' })).toEqual(['same name x', 'same name y']);
  });
});

describe('split and join', () => {
  it('a word splits at a letter/digit change and where both halves are words: gpt4o, llamacpp', () => {
    const ps = [project('GPT-4o'), project('llama.cpp'), project('GPT-4 turbo')];
    expect(firstOf(ps, { q: 'gpt4o' })).toEqual(['GPT-4o']);
    expect(firstOf(ps, { q: 'llamacpp' })).toEqual(['llama.cpp']);
  });

  it('two words join into one the directory holds: comfy ui → ComfyUI, chat glm → ChatGLM', () => {
    const ps = [project('ComfyUI'), project('ChatGLM'), project('chat bot')];
    expect(firstOf(ps, { q: 'comfy ui' })).toEqual(['ComfyUI']);
    expect(firstOf(ps, { q: 'chat glm' })).toEqual(['ChatGLM']);
  });

  it('a split or joined match ranks below the same match typed, above every typo', () => {
    const ps = [project('llamacpp'), project('llama cpp'), project('lamacpp tool')];
    // the token itself, then the split (two words), then the typo
    expect(firstOf(ps, { q: 'llamacpp' })).toEqual(['llamacpp', 'llama cpp', 'lamacpp tool']);
  });
});

describe('explain and dropped', () => {
  it('explain=1 gives each rule its value; an answer that left words out says which', () => {
    const ix = new SearchIndex();
    ix.put([project('ollama', { standing: 7 }), project('ollama chat 92')]);
    const r = ix.findProjects({ ...BASE_QUERY, q: 'ollama nowhere', explain: true });
    expect(r.dropped).toEqual(['nowhere']);
    expect(r.hits[0]!.match!.rules).toEqual({
      words: 1,
      typo: 0,
      proximity: 0,
      attribute: 3,
      exactness: 4,
      coverage: 1,
      standing: 7,
    });
    expect(r.hits[1]!.match!.rules!.coverage).toBe(0.33);
    expect(ix.findProjects({ ...BASE_QUERY, q: 'ollama' }).dropped).toBeUndefined();
  });
});
