import { SAMPLE, type SampleProject } from '../../src/sample.test-support.ts';

/*
 * The corpus of the judged set (docs/search.md#how-relevance-is-judged): the 40 sample projects among
 * `others` made-up projects, deterministic (a seeded generator). About one in twenty is a near miss
 * of a sample project — a fork, a wrapper, a plugin, a "X UI", notes about it — named with the
 * project's own words, as a directory fed by crawlers holds them; the rest are projects of the
 * same subjects in both languages that share the sample's common words (model, engine, vector,
 * 推理, 大模型, …).
 */

/** A small seeded generator (mulberry32), so that the corpus is the same in every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN_WORDS = [
  'Smart',
  'Open',
  'Fast',
  'Tiny',
  'Deep',
  'Neural',
  'Vision',
  'Chat',
  'Agent',
  'Vector',
  'Model',
  'Engine',
  'Inference',
  'Speech',
  'Video',
  'Image',
  'Code',
  'Data',
  'Graph',
  'Prompt',
  'Flow',
  'Hub',
  'Lab',
  'Kit',
  'Studio',
  'Server',
  'Search',
  'Train',
  'Tune',
  'Cloud',
  'Local',
  'Light',
  'Mini',
  'Auto',
  'Multi',
  'Doc',
  'Text',
  'Voice',
  'Store',
  'Index',
  'Stream',
  'Edge',
  'Bench',
  'Eval',
  'Llama',
  'GPT',
  'Diffusion',
  'Stable',
  'Transformer',
  'RAG',
  'LLM',
  'OCR',
  'TTS',
  'UI',
  'Web',
];
const ZH_WORDS = [
  '智能',
  '开源',
  '模型',
  '大模型',
  '推理',
  '引擎',
  '向量',
  '数据库',
  '语音',
  '识别',
  '合成',
  '视频',
  '生成',
  '图像',
  '代码',
  '助手',
  '框架',
  '平台',
  '工具',
  '知识库',
  '检索',
  '问答',
  '对话',
  '翻译',
  '文档',
  '评测',
  '训练',
  '微调',
  '部署',
  '本地',
  '插件',
  '客户端',
  '工作流',
  '社区',
  '实验室',
];
const TAGS: { name: string; nameEn: string }[] = [
  { name: '大语言模型', nameEn: 'LLM' },
  { name: '智能体', nameEn: 'Agents' },
  { name: '开源', nameEn: 'Open Source' },
  { name: '推理', nameEn: 'Inference' },
  { name: '图像生成', nameEn: 'Image Generation' },
  { name: '视频生成', nameEn: 'Video Generation' },
  { name: '语音', nameEn: 'Speech' },
  { name: '检索增强生成', nameEn: 'RAG' },
  { name: '向量数据库', nameEn: 'Vector Database' },
  { name: '训练框架', nameEn: 'Training Framework' },
  { name: '多模态', nameEn: 'Multimodal' },
  { name: '中文', nameEn: 'Chinese' },
];
/** How forks, wrappers and notes of a project are named: `%` is the project's name or a word of it. */
const NEAR = [
  '% Chat',
  '% UI',
  '% Helper',
  '% demo',
  '% 笔记',
  '% 助手',
  '% 插件',
  '% 客户端',
  '% 部署',
  '% 工具',
  'awesome-%',
  '%-docker',
  '% WebUI',
  '% 中文版',
  '% Desktop',
  '% Server',
  '% API',
  '% 教程',
  'Easy %',
];

/** The words of a sample project's names that a near miss borrows: whole names and their parts. */
function borrowed(p: SampleProject): string[] {
  const out = new Set<string>();
  for (const name of [p.name, p.nameEn]) {
    if (!name) continue;
    for (const part of name.split(/\s+/u)) if (part.length >= 2) out.add(part);
    // a Chinese name's two-character parts (千问 of 通义千问)
    for (const run of name.match(/\p{Script=Han}{3,}/gu) ?? [])
      for (let i = 0; i + 2 <= run.length; i += 2) out.add(run.slice(i, i + 2));
  }
  return [...out];
}

export interface JudgedCorpus {
  /** The sample projects first (their indexes as in SAMPLE), then the others. */
  projects: SampleProject[];
}

export function judgedCorpus(others = 12_000, seed = 20261128): JudgedCorpus {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const projects: SampleProject[] = [...SAMPLE];
  for (let i = 0; i < others; i++) {
    const n = i + 1;
    const tags = [pick(TAGS), pick(TAGS)].filter((t, k, all) => all.indexOf(t) === k);
    const links = [{ type: 'CODEHOST' as const, url: `https://github.com/made-up-${n}/repo-${n}` }];
    if (i % 20 === 0) {
      // a near miss of a sample project
      const of = SAMPLE[(i / 20) % SAMPLE.length]!;
      const word = pick(borrowed(of));
      const name = `${pick(NEAR).replace('%', word)} ${n}`;
      projects.push({
        name,
        description: `${pick(['基于', '围绕', '一个使用'])} ${word} 的${pick(ZH_WORDS)}${pick(ZH_WORDS)}，${pick(ZH_WORDS)}与${pick(ZH_WORDS)}。`,
        tags: [...tags, ...of.tags.slice(0, 1)],
        links,
      });
      continue;
    }
    const zh = rnd() < 0.5;
    const name = zh
      ? `${pick(ZH_WORDS)}${pick(ZH_WORDS)}${pick(ZH_WORDS)} ${n}`
      : `${pick(EN_WORDS)} ${pick(EN_WORDS)} ${pick(EN_WORDS)} ${n}`;
    const description = `${pick(ZH_WORDS)}${pick(ZH_WORDS)}的${pick(ZH_WORDS)}${pick(ZH_WORDS)}，支持${pick(ZH_WORDS)}、${pick(ZH_WORDS)}和 ${pick(EN_WORDS)} ${pick(EN_WORDS)}。`;
    projects.push({ name, description, tags, links });
  }
  return { projects };
}
