import fc from 'fast-check';
import { SAMPLE, type SampleProject, toIndexed } from './sample.test-support.ts';
import type { IndexedProject, LinkType, ProjectQuery, ProjectStatus } from './types.ts';

/* The generators of property.test.ts: projects (the samples, mutated), queries, and writes. */

export const { projects: BASE, tags: BASE_TAGS } = toIndexed(SAMPLE as SampleProject[]);
export const WORDS = [
  '模型',
  '向量',
  '通义',
  '数据',
  '语言模型',
  '大模型',
  'deep',
  'vision',
  'lang',
  'model',
  'engine',
];
export const MORE = [
  'diffusion',
  'llama',
  'qwen',
  'tongyi',
  'tyqw',
  'xiangliang',
  'ai',
  'l',
  '2',
  'v3',
  'seek',
  'llm',
];
export const SYNONYM_WORDS = ['whisper', '引擎', '语音识别', '大语言模型'];
export const TYPOS = [
  'modle',
  'whipser',
  'langchian',
  'difusion',
  'trasnformers',
  'enigne',
  'deepseek',
  'vison',
];
export const TYPES: LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
export const SYNONYM_SETS = [
  ['大模型', '大语言模型', 'LLM'],
  ['向量数据库', 'vector database'],
  ['engine', '引擎'],
  ['whisper', '语音识别'],
];

export const word = fc.constantFrom(...WORDS, ...MORE, ...TYPOS, ...SYNONYM_WORDS);
export const query = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.constantFrom('Vector Database', '大 模型', 'DeepSeek-V3', '飞桨', 'gpt'),
);

/** A mutation of a sample project: another id, a word added to its name or description, other filters. */
export const project = fc
  .record({
    base: fc.integer({ min: 0, max: BASE.length - 1 }),
    id: fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/),
    nameWord: fc.option(word, { nil: undefined }),
    descWord: fc.option(word, { nil: undefined }),
    status: fc.constantFrom<ProjectStatus>('ACTIVE', 'ACTIVE', 'ARCHIVED'),
    source: fc.constantFrom('crawler', 'manual', null),
    tags: fc.subarray(
      BASE_TAGS.map((t) => t.id),
      { maxLength: 4 },
    ),
    links: fc.array(fc.constantFrom(...TYPES), { maxLength: 4 }),
    // few distinct times: ties to the millisecond are common
    updatedAt: fc.integer({ min: 0, max: 12 }),
    createdAt: fc.integer({ min: 0, max: 12 }),
  })
  .map((r): IndexedProject => {
    const b = BASE[r.base]!;
    return {
      ...b,
      id: r.id,
      slug: `${b.slug}-${r.id}`,
      name: r.nameWord ? `${b.name} ${r.nameWord}` : b.name,
      description: r.descWord ? `${b.description}${r.descWord}` : b.description,
      status: r.status,
      source: r.source,
      tagIds: r.tags,
      linkTypes: r.links,
      updatedAt: 1_700_000_000_000 + r.updatedAt * 1000,
      createdAt: 1_700_000_000_000 + r.createdAt * 1000,
    };
  });

/** Mostly undefined (a filter is given in about one query of six). */
export const rarely = <T>(arb: fc.Arbitrary<T>, none: T) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(none) }, { weight: 1, arbitrary: arb });
export const at = (t: number) => 1_700_000_000_000 + t * 1000;

export const projectQuery = fc.record({
  q: fc.option(query, { nil: undefined, freq: 4 }),
  typos: fc.option(fc.boolean(), { nil: undefined }),
  status: rarely(fc.constantFrom<ProjectStatus | undefined>('ACTIVE', 'ARCHIVED'), undefined),
  tagSlugs: rarely(fc.subarray([...BASE_TAGS.map((t) => t.slug), 'no-such-tag'], { maxLength: 2 }), []),
  tagMode: fc.constantFrom<'all' | 'any'>('all', 'any'),
  linkTypes: rarely(fc.subarray(TYPES, { maxLength: 2 }), []),
  source: rarely(fc.constantFrom<string | undefined>('crawler', 'manual'), undefined),
  updatedAfter: rarely(fc.integer({ min: 0, max: 12 }).map<number | undefined>(at), undefined),
  sort: fc.constantFrom<ProjectQuery['sort']>('relevance', 'relevance', 'updated', 'created', 'name'),
  order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  // the brute force matches every word (the matching strategy is tested in matching-strategy.test.ts)
  matchingStrategy: fc.constant<'all'>('all'),
  limit: fc.integer({ min: 1, max: 9 }),
  asOf: rarely(fc.integer({ min: 0, max: 12 }).map<number | undefined>(at), undefined),
});

export type Op =
  | { kind: 'query'; q: ProjectQuery }
  | { kind: 'put'; p: IndexedProject }
  /** keepText: only tags, status, links and times change (a tag merge's kind of update) */
  | { kind: 'update'; at: number; p: IndexedProject; keepText: boolean }
  | { kind: 'remove'; at: number }
  | { kind: 'synonyms'; sets: string[][] }
  | { kind: 'renameTag'; at: number; nameEn: string };

export const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 10, arbitrary: projectQuery.map((q) => ({ kind: 'query' as const, q: { ...q, facets: [] } })) },
  { weight: 2, arbitrary: project.map((p) => ({ kind: 'put' as const, p })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ at: fc.nat(), p: project, keepText: fc.boolean() })
      .map((r) => ({ kind: 'update' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: 'remove' as const, at })) },
  {
    weight: 1,
    arbitrary: fc.subarray(SYNONYM_SETS).map((sets) => ({ kind: 'synonyms' as const, sets })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ at: fc.nat(), nameEn: fc.constantFrom('Model Hub', 'Engines', 'Wombat', 'Deep Vision') })
      .map((r) => ({ kind: 'renameTag' as const, ...r })),
  },
);
