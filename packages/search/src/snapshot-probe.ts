import { createHash } from 'node:crypto';
import { readState, writeState } from './persist.ts';
import { SearchIndex } from './search-index.ts';
import type { IndexedProject, IndexedTag, ProjectQuery } from './types.ts';

/*
 * Whether the engine's state round-trips through persist.ts, and a fingerprint of the engine:
 * a small probe index is built, searched, written, read back into a fresh index, and both are
 * searched and changed alike. Equal answers: snapshots may be used, under the fingerprint (a
 * hash of the probe's bytes), which changes with any change of the engine's layout or of what
 * it makes of a text (tokens, pinyin, keys). A snapshot written under another fingerprint is
 * never loaded (docs/search.md, "Restarts: the model's snapshot").
 */

const TAGS: IndexedTag[] = [
  { id: 't1', name: '大语言模型', nameEn: 'LLM', slug: 'llm' },
  { id: 't2', name: '开源', nameEn: 'Open Source', slug: 'open-source' },
  { id: 't3', name: '图像生成', nameEn: null, slug: 'tu-xiang-sheng-cheng' },
];

const TEXTS: [string, string | null, string, string | null][] = [
  ['通义千问', 'Qwen', '阿里云的大语言模型，支持中文和英文', 'A large language model by Alibaba Cloud'],
  ['文心一言', 'ERNIE Bot', '百度的对话模型', null],
  ['Stable Diffusion', null, 'Open image generation model', '开源的图像生成模型'],
  ['智谱清言', 'ChatGLM', '清华大学的对话语言模型', 'Bilingual dialogue model'],
  ['LangChain', null, 'Framework for building agents with language models', null],
  ['ＭｉｎｉＭａｘ', 'MiniMax', '全角字母的名字、多模态模型', 'Full-width name; multimodal models'],
];

function probeProject(i: number, rename = false): IndexedProject {
  const [name, nameEn, description, descriptionEn] = TEXTS[i % TEXTS.length]!;
  return {
    id: `probe${String(i).padStart(3, '0')}`,
    name: rename ? `${name} 二代` : name,
    nameEn,
    slug: `probe-${i}`,
    description,
    descriptionEn,
    status: i % 5 === 4 ? 'ARCHIVED' : 'ACTIVE',
    source: i % 3 === 0 ? 'crawler' : null,
    createdAt: Date.UTC(2026, 0, 1) + i * 1000,
    updatedAt: Date.UTC(2026, 0, 2) + i * 1000,
    tagIds: TAGS.filter((_, t) => (i + t) % 2 === 0).map((t) => t.id),
    linkTypes: i % 2 === 0 ? ['CODEHOST', 'WEBSITE'] : ['MODELHUB'],
  };
}

const BASE: ProjectQuery = {
  tagSlugs: [],
  tagMode: 'all',
  linkTypes: [],
  sort: 'relevance',
  order: 'desc',
  limit: 5,
  facets: ['tags', 'status', 'linkTypes'],
};

const QUERIES: ProjectQuery[] = [
  ...['模型', 'model', 'tyqw', 'tongyi', 'qwne', 'lang', '开源', 'open source', 'mini', 'q', '语言模型'].map(
    (q) => ({ ...BASE, q }),
  ),
  { ...BASE, q: '模型', tagSlugs: ['llm'], status: 'ACTIVE' },
  { ...BASE, sort: 'name', order: 'asc', facets: [] },
  { ...BASE, sort: 'updated', linkTypes: ['CODEHOST'], source: 'crawler' },
  { ...BASE, sort: 'created', after: { key: Date.UTC(2026, 0, 1) + 20_000, id: 'probe020' } },
];

const N = 64;

function build(): SearchIndex {
  const index = new SearchIndex();
  index.putTags(TAGS);
  index.put(Array.from({ length: N }, (_, i) => probeProject(i)));
  index.setSynonyms([['大模型', 'LLM', 'large language model']]);
  return index;
}

/** Asked only after the writes that follow the read: no cached expansion of the vocabulary answers them. */
const LATER = [
  'quokka',
  'wom',
  'zebr',
  '斑马',
  'ze',
  'wo',
  'quokak',
  'wombta',
  'aa',
  'ki',
  'aardvrak',
  'kiwi',
];

function answers(index: SearchIndex, later = false): string {
  const queries = later ? [...QUERIES, ...LATER.map((q) => ({ ...BASE, q }))] : QUERIES;
  const out: unknown[] = queries.map((q) => index.findProjects(q));
  out.push(
    index.findTags({ sort: 'count', limit: 10 }),
    index.findTags({ q: 'open', sort: 'name', limit: 10 }),
  );
  return JSON.stringify(out);
}

function change(index: SearchIndex) {
  // new words and grams too: every structure learns something after the read
  const fresh = {
    ...probeProject(N + 1),
    id: 'probe999',
    name: '斑马 Quokka',
    description: 'aardvark kiwifruit zebra quokka wombat',
  };
  index.put([probeProject(3, true), probeProject(N), fresh]);
  index.remove(['probe007']);
  index.putTags([{ id: 't3', name: '图像生成', nameEn: 'Image Generation', slug: 'image-generation' }]);
}

let result: { fingerprint: string } | { error: string } | undefined;

/**
 * The engine's fingerprint, or why snapshots cannot be used (the probe did not round-trip).
 * Computed once per process (a few milliseconds).
 */
export function snapshotFingerprint(): { fingerprint: string } | { error: string } {
  result ??= probe();
  return result;
}

function probe(): { fingerprint: string } | { error: string } {
  try {
    const built = build();
    answers(built);
    const chunks: Buffer[] = [];
    for (const _ of writeState((b) => chunks.push(Buffer.from(b)), built));
    const bytes = Buffer.concat(chunks);
    let at = 0;
    const loaded = new SearchIndex();
    readState((into) => {
      if (at + into.byteLength > bytes.byteLength) throw new Error('truncated');
      into.set(bytes.subarray(at, at + into.byteLength));
      at += into.byteLength;
    }, loaded);
    if (answers(loaded) !== answers(built))
      return { error: 'a probe index answers differently once read back' };
    change(built);
    change(loaded);
    if (answers(loaded, true) !== answers(built, true))
      return { error: 'a probe index read back answers differently after the same writes' };
    return { fingerprint: createHash('sha256').update(bytes).digest('hex').slice(0, 32) };
  } catch (err) {
    return { error: `the probe index does not round-trip: ${(err as Error).message}` };
  }
}
