import { randomBytes } from 'node:crypto';
import { slugify } from '../packages/core/src/domain/slug.ts';

// The benchmark's data: seeded project i is a pure function of i, so the seeder, the upsert
// scenario (which sends updates of seeded projects) and every database size agree on it.

type LinkType = 'WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER';

export interface BenchLink {
  type: LinkType;
  url: string;
  title?: string;
}

export interface BenchTag {
  name: string;
  nameEn?: string;
}

/** The fields of a ProjectInput as the seeder stores them and the upsert scenario sends them. */
export interface BenchProject {
  name: string;
  nameEn?: string;
  description: string;
  descriptionEn?: string;
  content?: string;
  contentEn?: string;
  status?: 'ACTIVE' | 'ARCHIVED';
  source?: string;
  tags: BenchTag[];
  links: BenchLink[];
}

/**
 * An id in cuid2's format (a letter, then base-36; 24 characters, random so that indexes fill
 * as they do with real ids). Not createId itself: at tens of microseconds per id, the ~500k
 * ids of a 100k-project seed would take longer than the rest of the seeding together.
 */
export function benchId(): string {
  if (randomOffset + 24 > random.length) {
    random = randomBytes(24 * 4096);
    randomOffset = 0;
  }
  let id = String.fromCharCode(97 + (random[randomOffset]! % 26));
  for (let i = 1; i < 24; i++) id += BASE36[random[randomOffset + i]! % 36];
  randomOffset += 24;
  return id;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
let random = Buffer.alloc(0);
let randomOffset = 0;

/** A small deterministic generator (mulberry32), so that every run sends the same requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TAG_WORDS: [string, string][] = [
  ['大语言模型', 'LLM'],
  ['开源', 'Open Source'],
  ['图像生成', 'Image Generation'],
  ['语音识别', 'Speech Recognition'],
  ['机器翻译', 'Machine Translation'],
  ['代码助手', 'Coding Assistant'],
  ['多模态', 'Multimodal'],
  ['智能体', 'Agents'],
  ['检索增强', 'RAG'],
  ['向量数据库', 'Vector Database'],
  ['推理加速', 'Inference'],
  ['模型训练', 'Training'],
  ['数据集', 'Datasets'],
  ['评测', 'Benchmarks'],
  ['视频生成', 'Video Generation'],
  ['语音合成', 'Text to Speech'],
  ['知识图谱', 'Knowledge Graph'],
  ['推荐系统', 'Recommendation'],
  ['自动驾驶', 'Autonomous Driving'],
  ['机器人', 'Robotics'],
  ['医疗', 'Healthcare'],
  ['金融', 'Finance'],
  ['教育', 'Education'],
  ['搜索', 'Search'],
  ['写作', 'Writing'],
  ['办公', 'Productivity'],
  ['安全', 'Security'],
  ['边缘计算', 'Edge AI'],
  ['微调', 'Fine-tuning'],
  ['提示工程', 'Prompt Engineering'],
];

/**
 * The shared tag pool (300 tags): every project's tags come from here, so tags are reused as
 * they are in a real directory. Every seventh tag has no English name (its slug is pinyin).
 */
export const TAG_POOL: BenchTag[] = Array.from({ length: 300 }, (_, i) => {
  const [zh, en] = TAG_WORDS[i % TAG_WORDS.length]!;
  const round = Math.floor(i / TAG_WORDS.length);
  const suffix = round === 0 ? '' : ` ${round + 1}`;
  return i % 7 === 3 ? { name: `${zh}${suffix}` } : { name: `${zh}${suffix}`, nameEn: `${en}${suffix}` };
});

/**
 * Tag slugs as the service makes them (docs/api.md#slugs-identity-ids-and-order: from nameEn, else name;
 * `-2`… on a clash).
 */
export function tagSlugs(tags: BenchTag[]): string[] {
  const taken = new Set<string>();
  return tags.map((tag) => {
    const base = slugify(tag.nameEn ?? tag.name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}

/**
 * The common words of the directory, twenty per language, aligned (模型 ↔ model): each
 * project's name and description draw four of them (commonWords), so that one common word
 * matches 1 − (19/20)⁴ ≈ 18.5% of the directory in each language, as "model" does in a real
 * directory of AI projects.
 */
export const ZH_COMMON = [
  '模型',
  '智能',
  '开源',
  '数据',
  '学习',
  '语言',
  '图像',
  '语音',
  '工具',
  '平台',
  '框架',
  '助手',
  '生成',
  '训练',
  '推理',
  '检索',
  '翻译',
  '视觉',
  '代码',
  '知识',
];
export const EN_COMMON = [
  'model',
  'smart',
  'open',
  'data',
  'learning',
  'language',
  'image',
  'speech',
  'toolkit',
  'platform',
  'framework',
  'assistant',
  'generation',
  'training',
  'inference',
  'retrieval',
  'translation',
  'vision',
  'code',
  'knowledge',
];

/** The four common words of project i (indexes into ZH_COMMON/EN_COMMON, repeats allowed). */
export function commonWords(i: number): [number, number, number, number] {
  let h = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  const next = () => {
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
    return h % ZH_COMMON.length;
  };
  return [next(), next(), next(), next()];
}

/** Three distinct tags of the pool for project i. */
export function projectTagIndexes(i: number): [number, number, number] {
  const n = TAG_POOL.length;
  const a = (i * 7919) % n;
  const b = (a + 1 + ((i * 104729) % (n - 2))) % n;
  let c = (b + 1 + ((i * 1299709) % (n - 3))) % n;
  while (c === a || c === b) c = (c + 1) % n;
  return [a, b, c];
}

/**
 * Seeded project i: a third Chinese-only names (pinyin slugs), a third Chinese names with an
 * English name, a third English-only, each made of two of its four common words; descriptions
 * in both languages with the same two and the other two; three links (CODEHOST, WEBSITE, then MODELHUB or PAPER)
 * and three tags of the pool. `revision` > 0 gives the same project with other descriptions
 * and its third tag changed, as an update would send it.
 */
export function seededProject(i: number, revision = 0): BenchProject {
  const [a, b, c, d] = commonWords(i);
  const zh = `${ZH_COMMON[a]}${ZH_COMMON[b]}`;
  const en = `${cap(EN_COMMON[a]!)} ${cap(EN_COMMON[b]!)}`;
  const kind = i % 3;
  const name = kind === 2 ? `${en} ${i} AI` : `${zh} ${i}`;
  const nameEn = kind === 1 ? `${en} ${i}` : undefined;
  const rev = revision > 0 ? `（第 ${revision} 版）` : '';
  const revEn = revision > 0 ? ` (revision ${revision})` : '';
  const org = `bench-org-${i % 997}`;
  const [t1, t2, t3] = projectTagIndexes(i);
  let t = (t3 + revision) % TAG_POOL.length;
  while (t === t1 || t === t2) t = (t + 1) % TAG_POOL.length;
  const tags = [TAG_POOL[t1]!, TAG_POOL[t2]!, TAG_POOL[t]!];
  return {
    name,
    ...(nameEn && { nameEn }),
    description: `${zh}：一个面向开发者的${ZH_COMMON[c]}与${ZH_COMMON[d]}项目，编号 ${i}，支持中文与英文。${rev}`,
    descriptionEn: `${en} is a project for developers about ${EN_COMMON[c]} and ${EN_COMMON[d]}, number ${i}.${revEn}`,
    content:
      `## ${zh}\n\n${zh} 是一个开源的人工智能项目。它提供命令行工具、Python 接口和 REST 服务，` +
      `可以在本地或云端部署。\n\n- 安装：\`pip install project-${i}\`\n- 文档：见官网\n${rev}`,
    ...(kind === 1 && {
      contentEn:
        `## ${en}\n\n${en} is an open-source AI project with a command-line tool, a Python API and ` +
        `a REST service, deployable locally or in the cloud.\n\n- Install: \`pip install project-${i}\`\n${revEn}`,
    }),
    ...(i % 20 === 19 && { status: 'ARCHIVED' as const }),
    source: i % 2 === 0 ? 'bench-seed' : 'bench-crawler',
    tags,
    links: [
      { type: 'CODEHOST', url: `https://github.com/${org}/project-${i}`, title: 'Source' },
      { type: 'WEBSITE', url: `https://project-${i}.example.com/` },
      i % 2 === 0
        ? { type: 'MODELHUB', url: `https://huggingface.co/${org}/model-${i}` }
        : { type: 'PAPER', url: `https://arxiv.org/abs/2401.${String(i).padStart(6, '0')}` },
    ],
  };
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/**
 * The slug the service gives a project (docs/api.md#slugs-identity-ids-and-order; seeded names never leave
 * an empty slug).
 */
export function projectSlug(project: Pick<BenchProject, 'name' | 'nameEn'>): string {
  return slugify(project.nameEn ?? project.name);
}

/** A project no seeded project matches by url or slug: the "new" half of an upsert batch. */
export function newProject(runTag: string, n: number): BenchProject {
  const base = seededProject(n);
  return {
    ...base,
    name: `新项目 ${runTag} ${n}`,
    nameEn: `Bench New ${runTag} ${n}`,
    links: [
      { type: 'CODEHOST', url: `https://github.com/bench-new-${runTag}/project-${n}` },
      { type: 'WEBSITE', url: `https://new-${n}.${runTag}.example.net/` },
      { type: 'PAPER', url: `https://arxiv.org/abs/new-${runTag}-${n}` },
    ],
  };
}

/** Source url of seeded task j that is not a project's link. */
export function taskUrl(j: number): string {
  return `https://discover.example.org/items/${j}`;
}
