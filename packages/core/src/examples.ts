/**
 * The example values of the OpenAPI document (every operation's `meta.examples`), in one place:
 * projects from the sample data (fixtures/projects.sample.json — a test checks they are copied
 * from it unchanged), with the ids, slugs and timestamps the service gives them.
 */

/** Sample project 0 (fixtures/projects.sample.json), a ProjectInput. */
export const QWEN_INPUT = {
  name: '通义千问',
  nameEn: 'Qwen',
  description:
    '阿里云通义团队推出的大语言模型系列，覆盖从十亿级以下到数百亿参数的基座与对话模型，支持长上下文、工具调用和多语言，权重以开放许可发布。',
  descriptionEn:
    "Alibaba Cloud's Qwen family of large language models, spanning base and chat models from sub-billion to tens of billions of parameters, with long-context, tool-use and multilingual support and openly licensed weights.",
  content:
    '## 亮点\n- 提供 Base、Chat 及 Int4/Int8 量化版本\n- 支持工具调用与长上下文\n- 权重可在 Hugging Face 与魔搭社区下载',
  contentEn:
    '## Highlights\n- Base, Chat and Int4/Int8 quantized releases\n- Tool calling and long-context support\n- Weights on Hugging Face and ModelScope',
  source: 'sample',
  tags: [
    { name: '大语言模型', nameEn: 'LLM' },
    { name: '多模态', nameEn: 'Multimodal' },
    { name: '开源', nameEn: 'Open Source' },
    { name: '中文', nameEn: 'Chinese' },
  ],
  links: [
    { type: 'CODEHOST', url: 'https://github.com/QwenLM/Qwen', title: 'GitHub' },
    { type: 'MODELHUB', url: 'https://huggingface.co/Qwen', title: 'Hugging Face' },
    { type: 'PAPER', url: 'https://arxiv.org/abs/2309.16609', title: 'Qwen Technical Report' },
    { type: 'WEBSITE', url: 'https://tongyi.aliyun.com/', title: '通义' },
  ],
};

/** Sample project 1, a ProjectInput. */
export const DEEPSEEK_V3_INPUT = {
  name: '深度求索 DeepSeek-V3',
  nameEn: 'DeepSeek-V3',
  description:
    '深度求索发布的混合专家（MoE）大语言模型，总参数 671B、每个 token 激活 37B，采用多头潜在注意力与无辅助损失的负载均衡策略，训练成本显著低于同级模型。',
  descriptionEn:
    "DeepSeek's Mixture-of-Experts language model with 671B total and 37B activated parameters per token, using Multi-head Latent Attention and auxiliary-loss-free load balancing at a fraction of the usual training cost.",
  content:
    '### 架构要点\n- MLA 多头潜在注意力\n- DeepSeekMoE 稀疏专家\n- 多 token 预测（MTP）训练目标\n- FP8 混合精度训练',
  contentEn:
    '### Architecture\n- Multi-head Latent Attention (MLA)\n- DeepSeekMoE sparse experts\n- Multi-token prediction (MTP) objective\n- FP8 mixed-precision training',
  source: 'sample',
  tags: [
    { name: '大语言模型', nameEn: 'LLM' },
    { name: '开源', nameEn: 'Open Source' },
    { name: '中文', nameEn: 'Chinese' },
  ],
  links: [
    { type: 'CODEHOST', url: 'https://github.com/deepseek-ai/DeepSeek-V3' },
    { type: 'MODELHUB', url: 'https://huggingface.co/deepseek-ai/DeepSeek-V3' },
    { type: 'PAPER', url: 'https://arxiv.org/abs/2412.19437', title: 'DeepSeek-V3 Technical Report' },
    { type: 'WEBSITE', url: 'https://www.deepseek.com/', title: '深度求索官网' },
  ],
};

export const QWEN_ID = 'nv7pend1vv12jgbeuy4e8vwu';
export const QWEN_SLUG = 'qwen';
export const DEEPSEEK_V3_ID = 'iijf3p4ykwtrd2t0bn2f43mi';
export const DEEPSEEK_V3_SLUG = 'deepseek-v3';
/** A second spelling of Qwen, the kind GET /api/projects/duplicates finds and a merge removes. */
export const DUPLICATE_ID = 'k7w2m9q4x1c8v5b3n6z0l2p4';
/** A lease token as a claim returns it (sent back with heartbeat, release, PATCH and complete). */
export const LEASE_TOKEN = '0b8f2c1e-5d3a-4c8e-9f61-2a7d4e9b3c10';
export const TASK_ID = 's5d24owq4h3979odhwjp7z7g';
export const CREATED_AT = '2026-11-20T08:15:30.123Z';
export const UPDATED_AT = '2026-11-21T02:40:11.456Z';

const TAG_IDS = [
  't1xq0c6v2m8k4r9p7w3z5b1n',
  'a8f2k5m1q9w3e7r4t6y0u2i5',
  'm4n7b1v5c9x3z8l2k6j0h4g1',
  'p0o9i8u7y6t5r4e3w2q1a2s3',
];
const TAG_SLUGS = ['llm', 'multimodal', 'open-source', 'chinese'];
const LINK_IDS = [
  'l2k4j6h8g0f1d3s5a7q9w1e3',
  'z9x7c5v3b1n2m4l6k8j0h2g4',
  'q1w2e3r4t5y6u7i8o9p0a1s2',
  'd3f5g7h9j1k2l4z6x8c0v2b4',
];

/** Sample project 0 as the service returns it. */
export const QWEN_PROJECT = {
  id: QWEN_ID,
  name: QWEN_INPUT.name,
  nameEn: QWEN_INPUT.nameEn,
  slug: QWEN_SLUG,
  description: QWEN_INPUT.description,
  descriptionEn: QWEN_INPUT.descriptionEn,
  content: QWEN_INPUT.content,
  contentEn: QWEN_INPUT.contentEn,
  status: 'ACTIVE',
  source: QWEN_INPUT.source,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  tags: QWEN_INPUT.tags.map((tag, i) => ({ id: TAG_IDS[i]!, ...tag, slug: TAG_SLUGS[i]! })),
  links: QWEN_INPUT.links.map((link, i) => ({ id: LINK_IDS[i]!, ...link })),
  signals: { stars: null, downloads: null },
};

/** A task as the service returns it, in the given state. */
export function exampleTask(state: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED') {
  return {
    id: TASK_ID,
    sourceUrl: 'https://github.com/QwenLM/Qwen',
    sourceType: 'github',
    status: state,
    createdAt: CREATED_AT,
    startedAt: state === 'PENDING' ? null : '2026-11-20T08:16:02.500Z',
    completedAt: state === 'COMPLETED' ? '2026-11-20T08:16:40.038Z' : null,
    projectId: state === 'COMPLETED' ? QWEN_ID : null,
    explorationData: state === 'COMPLETED' ? QWEN_INPUT : null,
    explorationSummary:
      state === 'PENDING'
        ? null
        : '阿里云通义千问开源模型仓库 / The Qwen open-weight model repository by Alibaba Cloud',
    errorMessage: null,
    retryCount: 0,
    lastRetryAt: null,
    attempt: state === 'PENDING' ? 0 : 1,
    leaseExpiresAt: state === 'IN_PROGRESS' ? '2026-11-20T08:21:02.500Z' : null,
    worker: state === 'PENDING' ? null : 'crawler-7',
    availableAt: null,
  };
}
