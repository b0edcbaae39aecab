import { create, insertMultiple, search as oramaSearch, type Tokenizer } from '@orama/orama';
import MiniSearch from 'minisearch';
import { judgedCorpus } from '../packages/search/test/judged/corpus.ts';
import { type Judged, judge, judgedTable } from '../packages/search/test/judged/metrics.ts';
import { engineOverJudgedCorpus } from '../packages/search/test/judged/run-engine.ts';

/*
 * Relevance side by side (`pnpm bench -- --scenarios relevance`): the judged set
 * (docs/search.md#how-relevance-is-judged) through this engine, MiniSearch and Orama, on the same
 * corpus (the 40 sample projects among 12,000 others) and queries, as one table of success@1 /
 * MRR@10 / nDCG@10 by kind, with each engine's mean time per query in this process.
 *
 * The peers are configured as their documentation recommends: the fields a person searches,
 * names boosted over tags over descriptions, prefix search and fuzzy matching (MiniSearch
 * `prefix: true, fuzzy: 0.2`; Orama `tolerance: 1`). Neither splits Chinese into words by
 * itself, and both documents say to give a tokenizer that does: both get the same one, the
 * platform's word segmenter (Intl.Segmenter, lower-cased), so that they are judged on ranking,
 * not on a tokenizer they were never meant to use for Chinese.
 */

export const RELEVANCE_START = '<!-- relevance bench: start -->';
export const RELEVANCE_END = '<!-- relevance bench: end -->';

interface Doc {
  id: string;
  name: string;
  nameEn: string;
  slug: string;
  tags: string;
  description: string;
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const words = (text: string): string[] => {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase()))
    if (s.isWordLike) out.push(s.segment);
  return out;
};

function docs(): Doc[] {
  const { projects } = judgedCorpus();
  return projects.map((p, i) => ({
    id: String(i),
    name: p.name,
    nameEn: p.nameEn ?? '',
    slug: (p.nameEn ?? p.name).toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    tags: p.tags.map((t) => `${t.name} ${t.nameEn ?? ''}`).join(' '),
    description: `${p.description} ${p.descriptionEn ?? ''}`,
  }));
}

const BOOST = { name: 3, nameEn: 3, slug: 2, tags: 1.5, description: 1 };

function miniSearch(all: Doc[]): (q: string) => string[] {
  const ms = new MiniSearch<Doc>({
    fields: ['name', 'nameEn', 'slug', 'tags', 'description'],
    tokenize: words,
    searchOptions: { boost: BOOST, prefix: true, fuzzy: 0.2 },
  });
  ms.addAll(all);
  const nameOf = new Map(all.map((d) => [d.id, d.nameEn || d.name]));
  return (q) =>
    ms
      .search(q)
      .slice(0, 10)
      .map((r) => nameOf.get(String(r.id))!);
}

async function orama(all: Doc[]): Promise<(q: string) => Promise<string[]>> {
  const tokenizer: Tokenizer = {
    language: 'chinese',
    normalizationCache: new Map(),
    tokenize: (raw: string) => words(raw),
  };
  const db = create({
    schema: {
      name: 'string',
      nameEn: 'string',
      slug: 'string',
      tags: 'string',
      description: 'string',
    } as const,
    components: { tokenizer },
  });
  await insertMultiple(db, all);
  const nameOf = new Map(all.map((d) => [d.id, d.nameEn || d.name]));
  return async (q) => {
    const r = await oramaSearch(db, { term: q, tolerance: 1, boost: BOOST, limit: 10 });
    return r.hits.map((h) => nameOf.get(h.id)!);
  };
}

export interface RelevanceResult {
  results: Record<string, Judged>;
  msPerQuery: Record<string, number>;
}

export async function runRelevanceBench(): Promise<RelevanceResult> {
  const all = docs();
  const engines: Record<string, (q: string) => string[] | Promise<string[]>> = {
    'this engine': engineOverJudgedCorpus(),
    MiniSearch: miniSearch(all),
    Orama: await orama(all),
  };
  const results: Record<string, Judged> = {};
  const msPerQuery: Record<string, number> = {};
  for (const [name, search] of Object.entries(engines)) {
    let spent = 0;
    let n = 0;
    results[name] = await judge(async (q) => {
      const t = performance.now();
      const got = await search(q);
      spent += performance.now() - t;
      n++;
      return got;
    });
    msPerQuery[name] = spent / n;
  }
  return { results, msPerQuery };
}

export function renderRelevance(r: RelevanceResult, when: string): string {
  const names = Object.keys(r.results);
  return [
    RELEVANCE_START,
    '## Relevance: the judged set, side by side',
    '',
    `${when} \`pnpm bench -- --scenarios relevance\` (bench/relevance.ts): the judged set of`,
    'docs/search.md#how-relevance-is-judged through this engine, MiniSearch 7.2 and Orama 3.1 on the',
    'same corpus and queries; each cell is success@1 / MRR@10 / nDCG@10.',
    '',
    judgedTable(r.results),
    '',
    `Mean time per query in one process: ${names.map((n) => `${n} ${r.msPerQuery[n]!.toFixed(2)} ms`).join(', ')}.`,
    RELEVANCE_END,
  ].join('\n');
}

export function withRelevanceSection(text: string, section: string): string {
  const start = text.indexOf(RELEVANCE_START);
  const end = text.indexOf(RELEVANCE_END);
  if (start === -1 || end === -1) return `${text.trimEnd()}\n\n${section}\n`;
  return text.slice(0, start) + section + text.slice(end + RELEVANCE_END.length);
}
