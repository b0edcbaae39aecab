import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fullScore,
  KEY_EXACT,
  KEY_EXACT_SYNONYM,
  KEY_NONE,
  KEY_PREFIX,
  KEY_PREFIX_SYNONYM,
  matchCode,
  score,
} from './ranking.ts';
import { SAMPLE, type SampleProject, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { SEP, termsOf } from './terms.ts';
import { compareCodePoints, isCjkToken, nameSortKey, pinyinSyllables, tokens } from './text.ts';
import type {
  FacetName,
  IndexedProject,
  IndexedTag,
  LinkType,
  ProjectHit,
  ProjectQuery,
  ProjectStatus,
} from './types.ts';

/*
 * The property: for random projects (the samples, mutated), random updates and removals, and
 * random queries, filters, sorts and page sizes, walking every page by cursor returns exactly
 * what a brute force over all projects returns, in order; totals and facet counts equal a
 * brute-force count. The brute force below applies the rules (docs/search.md#how-matching-works,
 * docs/search.md#search-as-a-search-engine, the scores of ranking.ts) plainly: every project, every token,
 * a full edit-distance matrix.
 */

// ——————————————————————————————————————————— the brute force

function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

const allowed = (w: string) =>
  !/^\p{Script=Latin}+$/u.test(w) ? 0 : w.length >= 9 ? 2 : w.length >= 5 ? 1 : 0;

/** Typos of a term against a token: 0 exact, 1–2 a prefix within the allowed edits, undefined no match. */
function termToken(term: string, token: string, k: number): number | undefined {
  if (
    isCjkToken(term) ? token.includes(term) : term.length <= 2 ? token.startsWith(term) : token.includes(term)
  )
    return 0;
  let best: number | undefined;
  for (let i = 0; i <= token.length && k > 0; i++) {
    const dist = osa(term, token.slice(0, i));
    if (dist <= k && (best === undefined || dist < best)) best = dist;
  }
  // a first letter that differs counts twice
  if (best !== undefined && term[0] !== token[0]) best++;
  return best !== undefined && best <= k ? best : undefined;
}

const ALL_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
const LETTER_DIGIT = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

interface Way {
  typos: number;
  cls: number;
  synonym: boolean;
}
const rank = (w: Way) => -w.typos * 100 + w.cls * 10 - (w.synonym ? 1 : 0);

class Reference {
  projects = new Map<string, IndexedProject>();
  tags = new Map<string, IndexedTag>();
  synonyms: string[][][] = [];

  private nameTokens(p: IndexedProject) {
    const syl = pinyinSyllables(p.name);
    const [, , , full, initials] = this.keys(p);
    return [
      ...tokens(p.name),
      ...tokens(p.nameEn),
      ...tokens(p.slug),
      ...syl,
      ...(full ? [full, initials!] : []),
    ];
  }

  /** name, nameEn, slug, full pinyin and initials (the pinyin keys as terms.ts spells them). */
  private keys(p: IndexedProject): string[] {
    return termsOf(p).keys.split(SEP).slice(1, -1);
  }

  /** The rank part of a project's full score: its shortest name (words, then letters; in pinyin when Chinese), standing 0. */
  rankOf(p: IndexedProject): number {
    const [name, nameEn, , full] = this.keys(p);
    const of = (words: number, letters: number) => Math.min(255, words) * 256 + Math.min(255, letters);
    const own = of(tokens(p.name).length, full!.length > 0 ? full!.length : name!.length);
    const en = tokens(p.nameEn).length > 0 ? of(tokens(p.nameEn).length, nameEn!.length) : 0xffff;
    return (0xffff - Math.min(own, en)) * 65536;
  }

  private heldFor: IndexedProject[] = [];
  private heldSet = new Set<string>();

  /** Whether a live project holds a Latin token (in a name-class field or a description). */
  private held(t: string): boolean {
    const now = [...this.projects.values()];
    if (now.length !== this.heldFor.length || now.some((p, i) => p !== this.heldFor[i])) {
      this.heldFor = now;
      this.heldSet = new Set(
        now.flatMap((p) => [...this.nameTokens(p), ...tokens(p.description), ...tokens(p.descriptionEn)]),
      );
    }
    return this.heldSet.has(t);
  }

  /** Split and join (docs/search.md#split-and-join), plainly. */
  private splitJoin(words: { own: string[]; syn: string[][] }[]) {
    const out: { own: string[]; syn: string[][] }[] = [];
    const one = (w: { own: string[]; syn: string[][] } | undefined) =>
      w && w.own.length === 1 && w.syn.length === 0 && !isCjkToken(w.own[0]!);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const next = words[i + 1];
      if (one(w) && one(next)) {
        const joined = w.own[0]! + next!.own[0]!;
        if (joined.length <= 32 && this.held(joined)) {
          out.push({ own: [w.own[0]!, next!.own[0]!], syn: [[joined]] });
          i++;
          continue;
        }
      }
      if (w.own.length !== 1 || w.syn.length > 0 || isCjkToken(w.own[0]!)) {
        out.push(w);
        continue;
      }
      const t = w.own[0]!;
      const syn: string[][] = [];
      if (t.length >= 2 && t.length <= 32) {
        const parts = t.split(LETTER_DIGIT);
        if (parts.length > 1) {
          syn.push([parts[0]!, t.slice(parts[0]!.length)]);
          if (parts.length > 2) syn.push(parts);
        } else
          for (let i = 3; t.length >= 6 && i <= t.length - 3; i++)
            if (this.held(t.slice(0, i)) && this.held(t.slice(i))) {
              syn.push([t.slice(0, i), t.slice(i)]);
              break;
            }
      }
      out.push({ own: w.own, syn });
    }
    return out;
  }

  /** The best way a term matches a project. */
  private term(p: IndexedProject, term: string, k: number, synonym: boolean): Way | undefined {
    const places: [number, string[]][] = [
      [3, this.nameTokens(p)],
      [
        2,
        p.tagIds.flatMap((id) => [...tokens(this.tags.get(id)!.name), ...tokens(this.tags.get(id)!.nameEn)]),
      ],
      [1, [...tokens(p.description), ...tokens(p.descriptionEn)]],
    ];
    let best: Way | undefined;
    for (const [cls, toks] of places)
      for (const tok of toks) {
        const typos = termToken(term, tok, k);
        if (typos === undefined) continue;
        const way = { typos, cls, synonym };
        if (!best || rank(way) > rank(best)) best = way;
      }
    return best;
  }

  words(q: string): { terms: string[]; words: { own: string[]; syn: string[][] }[] } {
    const terms = [...new Set(tokens(q))].slice(0, 16);
    const words: { own: string[]; syn: string[][] }[] = [];
    let i = 0;
    while (i < terms.length) {
      let best: { set: string[][]; len: number } | undefined;
      for (const set of this.synonyms)
        for (const t of set)
          if (
            terms.slice(i, i + t.length).join(' ') === t.join(' ') &&
            i + t.length <= terms.length &&
            (!best || t.length > best.len)
          )
            best = { set, len: t.length };
      if (best) {
        const own = terms.slice(i, i + best.len);
        words.push({ own, syn: best.set.filter((t) => t.join(' ') !== own.join(' ')) });
        i += best.len;
      } else {
        words.push({ own: [terms[i]!], syn: [] });
        i++;
      }
    }
    return { terms, words: this.splitJoin(words) };
  }

  /** The score, typos of a project for q, or undefined when it does not match. */
  scoreOf(p: IndexedProject, q: string, typosOn: boolean): { score: number; typos: number } | undefined {
    const { terms, words } = this.words(q);
    let worst: Way | undefined;
    for (const w of words) {
      let bestAlt: Way | undefined;
      [w.own, ...w.syn].forEach((alt, ai) => {
        let all: Way | undefined = { typos: 0, cls: 3, synonym: ai > 0 };
        for (const t of alt) {
          const way = this.term(p, t, typosOn && ai === 0 ? allowed(t) : 0, ai > 0);
          if (!way || !all) {
            all = undefined;
            continue;
          }
          all = {
            typos: Math.max(all.typos, way.typos),
            cls: Math.min(all.cls, way.cls),
            synonym: all.synonym,
          };
        }
        if (all && (!bestAlt || rank(all) > rank(bestAlt))) bestAlt = all;
      });
      if (!bestAlt) return undefined;
      worst = worst
        ? {
            typos: Math.max(worst.typos, bestAlt.typos),
            cls: Math.min(worst.cls, bestAlt.cls),
            synonym: worst.synonym || bestAlt.synonym,
          }
        : bestAlt;
    }
    if (!worst) return undefined;
    const keys = this.keys(p).filter(Boolean);
    let tier = KEY_NONE;
    const wholes: [string, boolean][] = [[terms.join(''), false]];
    if (words.length === 1) for (const s of words[0]!.syn) wholes.push([s.join(''), true]);
    for (const [whole, syn] of wholes) {
      const t = keys.includes(whole)
        ? syn
          ? KEY_EXACT_SYNONYM
          : KEY_EXACT
        : !ALL_CJK.test(whole) && keys.some((k) => k.startsWith(whole))
          ? syn
            ? KEY_PREFIX_SYNONYM
            : KEY_PREFIX
          : KEY_NONE;
      tier = Math.max(tier, t);
    }
    return { score: score(matchCode(worst.cls, worst.typos, worst.synonym), tier), typos: worst.typos };
  }

  filtered(q: ProjectQuery, ignore?: FacetName) {
    const out: { p: IndexedProject; score?: number; typos?: number }[] = [];
    for (const p of this.projects.values()) {
      let s: { score: number; typos: number } | undefined;
      if (q.q !== undefined) {
        s = this.scoreOf(p, q.q, q.typos !== false);
        if (!s) continue;
      }
      if (ignore !== 'status' && q.status && p.status !== q.status) continue;
      const slugs = p.tagIds.map((id) => this.tags.get(id)!.slug);
      if (ignore !== 'tags' && q.tagSlugs.length) {
        if (q.tagMode === 'all' && !q.tagSlugs.every((t) => slugs.includes(t))) continue;
        if (q.tagMode === 'any' && !q.tagSlugs.some((t) => slugs.includes(t))) continue;
      }
      if (ignore !== 'linkTypes' && !q.linkTypes.every((t) => p.linkTypes.includes(t))) continue;
      if (q.source !== undefined && p.source !== q.source) continue;
      if (q.updatedAfter !== undefined && !(p.updatedAt > q.updatedAfter)) continue;
      out.push({ p, ...(s && { score: s.score, typos: s.typos }) });
    }
    return out;
  }

  keyOf(q: ProjectQuery, x: { p: IndexedProject; score?: number }): number | string {
    return q.sort === 'relevance'
      ? fullScore(x.score!, this.rankOf(x.p))
      : q.sort === 'name'
        ? nameSortKey(x.p.name)
        : q.sort === 'updated'
          ? x.p.updatedAt
          : x.p.createdAt;
  }

  /** Every match in page order (before asOf), and the total. */
  ordered(q: ProjectQuery) {
    const all = this.filtered(q);
    const dir = q.order === 'asc' ? 1 : -1;
    const cmp = (a: number | string, ai: string, b: number | string, bi: string) => {
      const c = typeof a === 'number' ? a - (b as number) : compareCodePoints(a, b as string);
      return dir * (c !== 0 ? c : compareCodePoints(ai, bi));
    };
    const list = all
      .map((x) => ({ ...x, key: this.keyOf(q, x) }))
      .sort((a, b) => cmp(a.key, a.p.id, b.key, b.p.id));
    return { list, total: all.length, cmp };
  }

  facets(q: ProjectQuery) {
    const count = (values: string[]) => {
      const m = new Map<string, number>();
      for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
      return m;
    };
    return {
      status: count(this.filtered(q, 'status').map((x) => x.p.status)),
      linkTypes: count(this.filtered(q, 'linkTypes').flatMap((x) => [...new Set(x.p.linkTypes)])),
      tags: count(this.filtered(q, 'tags').flatMap((x) => x.p.tagIds.map((id) => this.tags.get(id)!.slug))),
    };
  }
}

// ——————————————————————————————————————————— the generators

const { projects: BASE, tags: BASE_TAGS } = toIndexed(SAMPLE as SampleProject[]);
const WORDS = [
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
const MORE = [
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
const SYNONYM_WORDS = ['whisper', '引擎', '语音识别', '大语言模型'];
const TYPOS = ['modle', 'whipser', 'langchian', 'difusion', 'trasnformers', 'enigne', 'deepseek', 'vison'];
const TYPES: LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
const SYNONYM_SETS = [
  ['大模型', '大语言模型', 'LLM'],
  ['向量数据库', 'vector database'],
  ['engine', '引擎'],
  ['whisper', '语音识别'],
];

const word = fc.constantFrom(...WORDS, ...MORE, ...TYPOS, ...SYNONYM_WORDS);
const query = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.constantFrom('Vector Database', '大 模型', 'DeepSeek-V3', '飞桨', 'gpt'),
);

/** A mutation of a sample project: another id, a word added to its name or description, other filters. */
const project = fc
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
const rarely = <T>(arb: fc.Arbitrary<T>, none: T) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(none) }, { weight: 1, arbitrary: arb });
const at = (t: number) => 1_700_000_000_000 + t * 1000;

const projectQuery = fc.record({
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

type Op =
  | { kind: 'query'; q: ProjectQuery }
  | { kind: 'put'; p: IndexedProject }
  /** keepText: only tags, status, links and times change (a tag merge's kind of update) */
  | { kind: 'update'; at: number; p: IndexedProject; keepText: boolean }
  | { kind: 'remove'; at: number }
  | { kind: 'synonyms'; sets: string[][] }
  | { kind: 'renameTag'; at: number; nameEn: string };

const op: fc.Arbitrary<Op> = fc.oneof(
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

// ——————————————————————————————————————————— the property

/** What the checks saw (so that a generator producing nothing interesting is noticed). */
const seen = { queries: 0, hits: 0, typoHits: 0, synonymHits: 0, pages: 0 };

function check(index: SearchIndex, ref: Reference, q: ProjectQuery) {
  seen.queries++;
  const label = JSON.stringify(q);
  if (q.sort === 'relevance' && q.q === undefined) q = { ...q, sort: 'updated' };
  const { list, total } = ref.ordered(q);
  const expected = list.filter((x) => q.asOf === undefined || x.p.updatedAt <= q.asOf);
  const walked: ProjectHit[] = [];
  let after: ProjectQuery['after'];
  let first = true;
  for (let pages = 0; pages < 200; pages++) {
    const r = index.findProjects({ ...q, after, facets: first ? ['tags', 'status', 'linkTypes'] : [] });
    expect(r.total, label).toBe(total);
    if (first) {
      const f = ref.facets(q);
      expect(new Map(r.facets!.status!.map((x) => [x.value, x.count])), label).toEqual(f.status);
      expect(new Map(r.facets!.linkTypes!.map((x) => [x.value, x.count])), label).toEqual(f.linkTypes);
      expect(new Map(r.facets!.tags!.map((x) => [x.slug, x.count])), label).toEqual(f.tags);
      first = false;
    }
    expect(r.hits.length, label).toBeLessThanOrEqual(q.limit + 1);
    const page = r.hits.slice(0, q.limit);
    seen.pages++;
    seen.hits += page.length;
    seen.typoHits += page.filter((h) => (h.match?.typos ?? 0) > 0).length;
    seen.synonymHits += page.filter((h) => (h.match?.score ?? 0) % 20 === 19).length;
    walked.push(...page);
    if (r.hits.length <= q.limit) break;
    const last = page[page.length - 1]!;
    after = { key: last.key, id: last.id };
  }
  expect(
    walked.map((h) => h.id),
    label,
  ).toEqual(expected.map((x) => x.p.id));
  expect(
    walked.map((h) => h.key),
    label,
  ).toEqual(expected.map((x) => x.key));
  if (q.q !== undefined)
    expect(
      walked.map((h) => [h.match!.score, h.match!.typos]),
      label,
    ).toEqual(expected.map((x) => [x.score, x.typos]));
}

describe('search property', () => {
  it('pages walked by cursor, totals and facets equal a brute force, through updates and removals', () => {
    fc.assert(
      fc.property(
        fc.array(project, { minLength: 5, maxLength: 40 }),
        fc.subarray(SYNONYM_SETS),
        fc.array(op, { minLength: 10, maxLength: 30 }),
        (initial, synonyms, ops) => {
          const index = new SearchIndex();
          const ref = new Reference();
          index.setSynonyms(synonyms);
          ref.synonyms = synonyms.map((set) => set.map((t) => tokens(t)));
          const tags = BASE_TAGS.map((t) => ({ ...t }));
          index.putTags(tags);
          for (const t of tags) ref.tags.set(t.id, t);
          index.put(initial);
          for (const p of initial) ref.projects.set(p.id, p);
          for (const o of ops) {
            const ids = [...ref.projects.keys()];
            if (o.kind === 'query') check(index, ref, o.q);
            else if (o.kind === 'put') {
              index.put([o.p]);
              ref.projects.set(o.p.id, o.p);
            } else if (o.kind === 'update' && ids.length > 0) {
              const id = ids[o.at % ids.length]!;
              const old = ref.projects.get(id)!;
              const text = o.keepText && {
                name: old.name,
                nameEn: old.nameEn,
                slug: old.slug,
                description: old.description,
                descriptionEn: old.descriptionEn,
              };
              const p = { ...o.p, ...text, id };
              index.put([p]);
              ref.projects.set(p.id, p);
            } else if (o.kind === 'remove' && ids.length > 0) {
              const id = ids[o.at % ids.length]!;
              index.remove([id]);
              ref.projects.delete(id);
            } else if (o.kind === 'synonyms') {
              index.setSynonyms(o.sets);
              ref.synonyms = o.sets.map((set) => set.map((t) => tokens(t)));
            } else if (o.kind === 'renameTag') {
              const t = tags[o.at % tags.length]!;
              const renamed = { ...t, nameEn: o.nameEn };
              index.putTags([renamed]);
              ref.tags.set(t.id, renamed);
            }
          }
          expect(index.stats().projects).toBe(ref.projects.size);
        },
      ),
      { numRuns: 30 },
    );
    expect(seen.typoHits).toBeGreaterThan(0);
    expect(seen.synonymHits).toBeGreaterThan(0);
    expect(seen.pages).toBeGreaterThan(seen.queries);
  });

  it('a cursor resumes exactly after its (key, id) while projects are written and removed between pages', () => {
    fc.assert(
      fc.property(
        fc.array(project, { minLength: 10, maxLength: 40 }),
        projectQuery,
        fc.array(
          fc.oneof(
            project.map((p) => ({ p, remove: false as const })),
            fc.nat().map((at) => ({ at, remove: true as const })),
          ),
          {
            maxLength: 12,
          },
        ),
        (initial, q0, writes) => {
          const q: ProjectQuery = {
            ...q0,
            sort: q0.sort === 'relevance' && q0.q === undefined ? 'name' : q0.sort,
            asOf: undefined,
            facets: [],
          };
          const index = new SearchIndex();
          const ref = new Reference();
          index.putTags(BASE_TAGS);
          for (const t of BASE_TAGS) ref.tags.set(t.id, t);
          index.put(initial);
          for (const p of initial) ref.projects.set(p.id, p);
          let after: ProjectQuery['after'];
          for (let w = 0; w <= writes.length; w++) {
            const r = index.findProjects({ ...q, after });
            const { list, cmp } = ref.ordered(q);
            const rest = after ? list.filter((x) => cmp(x.key, x.p.id, after!.key, after!.id) > 0) : list;
            expect(r.hits.map((h) => h.id)).toEqual(rest.slice(0, q.limit + 1).map((x) => x.p.id));
            if (r.hits.length <= q.limit) break;
            const last = r.hits[q.limit - 1]!;
            after = { key: last.key, id: last.id };
            const write = writes[w];
            if (!write) continue;
            if (write.remove) {
              // often the cursor's own project
              const ids = [...ref.projects.keys()];
              const id = write.at % 2 === 0 ? last.id : ids[write.at % ids.length]!;
              index.remove([id]);
              ref.projects.delete(id);
            } else {
              index.put([write.p]);
              ref.projects.set(write.p.id, write.p);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
