/*
 * Micro-benchmark of the engine alone (no database, no HTTP): builds N synthetic projects
 * from the 40 samples (names, descriptions and tags varied) and prints the build time, the
 * index's estimate of its bytes per project, the heap, and the CPU time per query.
 *
 *   node --import tsx packages/search/bench/engine.ts 100000
 *   node --max-old-space-size=6144 --import tsx packages/search/bench/engine.ts 1000000
 */
import { readFileSync } from 'node:fs';
import { SearchIndex } from '../src/index.ts';
import type { IndexedProject, IndexedTag, LinkType, ProjectQuery } from '../src/types.ts';

const N = Number(process.argv[2] ?? 100_000);

interface Sample {
  name: string;
  nameEn?: string;
  description: string;
  descriptionEn?: string;
  tags: { name: string; nameEn?: string }[];
  links: { type: LinkType }[];
}
const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Sample[];

// a deterministic generator, so that runs compare
let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

// a vocabulary that grows with the directory, as real names and words do
const CONSONANTS = 'bcdfghjklmnprstvwxz';
const VOWELS = 'aeiou';
const pseudoWord = () => {
  let w = '';
  const syllables = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < syllables; i++) w += pick([...CONSONANTS]) + pick([...VOWELS]);
  return w;
};
const ENGLISH = Array.from({ length: Math.max(2000, N / 20) }, pseudoWord);
const CJK_CHARS = [
  ...new Set(SAMPLE.flatMap((s) => [...s.description].filter((c) => /\p{Script=Han}/u.test(c)))),
];
const cjkWord = () => pick(CJK_CHARS) + pick(CJK_CHARS) + (rand() < 0.5 ? pick(CJK_CHARS) : '');

const tagByName = new Map<string, IndexedTag>();
const tagOf = (name: string, nameEn: string | null) => {
  let t = tagByName.get(name);
  if (!t) {
    t = { id: `t${tagByName.size}`, name, nameEn, slug: `tag-${tagByName.size}` };
    tagByName.set(name, t);
  }
  return t.id;
};
const EXTRA_TAGS = Array.from({ length: 300 }, (_, i) => ({
  name: `${cjkWord()}${i}`,
  nameEn: pseudoWord(),
}));

/** A piece of a description (a common word such as 模型 then lands in about a quarter of them). */
const fragment = (text: string) => {
  const at = Math.floor(rand() * (text.length - 12));
  return text.slice(at, at + 6 + Math.floor(rand() * 8));
};

function project(i: number): IndexedProject {
  const s = SAMPLE[i % SAMPLE.length]!;
  const other = pick(SAMPLE);
  const word = pick(ENGLISH);
  // a name of its own for one project in three (brands are most of a directory's vocabulary)
  const brand = rand() < 0.3 ? pseudoWord() + pseudoWord() : pick(ENGLISH);
  const tags = [...s.tags.map((t) => tagOf(t.name, t.nameEn ?? null))];
  for (let k = Math.floor(rand() * 3); k > 0; k--) {
    const t = pick(EXTRA_TAGS);
    tags.push(tagOf(t.name, t.nameEn));
  }
  const t = 1_700_000_000_000 + Math.floor(rand() * 1e10);
  return {
    id: `c${i.toString(36).padStart(8, '0')}${Math.floor(rand() * 1e6).toString(36)}`,
    name: `${s.name} ${cjkWord()} ${word} ${brand}`,
    nameEn: s.nameEn ? `${s.nameEn} ${word}` : null,
    // a slug is unique by its words (real slugs carry -2, -3 at most, not a number per project)
    slug: `${(s.nameEn ?? 'p').toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${word}-${brand}`,
    description: `${fragment(s.description)}${cjkWord()}，${fragment(other.description)}，${fragment(pick(SAMPLE).description)}`,
    descriptionEn: s.descriptionEn
      ? `${s.descriptionEn.slice(0, 80 + Math.floor(rand() * 80))} ${pick(ENGLISH)} ${pick(ENGLISH)}`
      : null,
    status: rand() < 0.1 ? 'ARCHIVED' : 'ACTIVE',
    source: pick(['crawler', 'manual', null]),
    createdAt: t,
    updatedAt: t + Math.floor(rand() * 1e8),
    tagIds: [...new Set(tags)],
    linkTypes: s.links.map((l) => l.type),
  };
}

const projects = Array.from({ length: N }, (_, i) => project(i));
const tags = [...tagByName.values()];
global.gc?.();
const heapBefore = process.memoryUsage();

// CPU time of this process (the machine is shared: wall time would count other processes' turns)
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const index = new SearchIndex();
let t0 = cpuMs();
index.putTags(tags);
for (let i = 0; i < N; i += 50_000) index.put(projects.slice(i, i + 50_000));
const buildMs = cpuMs() - t0;
if (process.env.BUILD_ONLY) {
  console.log(`build ${(buildMs / 1000).toFixed(1)} s`);
  process.exit(0);
}
global.gc?.();
const heapAfter = process.memoryUsage();
const stats = index.stats();
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
console.log(`projects ${N}  tags ${stats.tags}`);
console.log(`build ${(buildMs / 1000).toFixed(1)} s  (${((buildMs * 1000) / N).toFixed(1)} µs/project)`);
console.log(`index estimate ${mb(stats.bytes)}  = ${(stats.bytes / N).toFixed(0)} bytes/project`);
console.log(
  `heap +${mb(heapAfter.heapUsed - heapBefore.heapUsed)} (+${mb(heapAfter.arrayBuffers - heapBefore.arrayBuffers)} array buffers), rss ${mb(heapAfter.rss)}, ` +
    `${((heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers) / N).toFixed(0)} bytes/project measured`,
);

const base: ProjectQuery = {
  tagSlugs: [],
  tagMode: 'all',
  linkTypes: [],
  sort: 'relevance',
  order: 'desc',
  limit: 20,
  facets: [],
};
const cases: [string, Partial<ProjectQuery>][] = [
  ['q=模型', { q: '模型' }],
  ['q=engine', { q: 'engine' }],
  ['q=向量 数据库 (two words)', { q: '向量 数据库' }],
  ['q=language model (two words)', { q: 'language model' }],
  ['q=kyzs (initials)', { q: 'kyzs' }],
  ['q=大语言模型 (5 characters)', { q: '大语言模型' }],
  ['q=enigne (typo)', { q: 'enigne' }],
  ['q=模型 + 3 facets', { q: '模型', facets: ['tags', 'status', 'linkTypes'] }],
  ['q=engine + 3 facets', { q: 'engine', facets: ['tags', 'status', 'linkTypes'] }],
  ['q=模型 sort=updated', { q: '模型', sort: 'updated' }],
  ['list sort=updated', { sort: 'updated' }],
  ['list sort=name, page 2', { sort: 'name', order: 'asc' }],
  ['list + 3 facets', { sort: 'updated', facets: ['tags', 'status', 'linkTypes'] }],
  ['list status=ARCHIVED tag', { sort: 'updated', status: 'ARCHIVED', tagSlugs: ['tag-0'] }],
];
const runs = N >= 1_000_000 ? 50 : 200;
// QUERY=<label prefix> runs only that case (for a profile)
for (const [label, q] of cases.filter(([l]) => !process.env.QUERY || l.startsWith(process.env.QUERY))) {
  const query = { ...base, ...q };
  let r = index.findProjects(query);
  if (label.includes('page 2')) {
    const last = r.hits[19]!;
    query.after = { key: last.key, id: last.id };
  }
  index.findProjects(query);
  t0 = cpuMs();
  for (let i = 0; i < runs; i++) r = index.findProjects(query);
  const us = ((cpuMs() - t0) * 1000) / runs;
  console.log(`${label.padEnd(32)} ${us.toFixed(0).padStart(7)} µs  total ${r.total}`);
}
t0 = cpuMs();
for (let i = 0; i < runs; i++) index.findTags({ sort: 'count', limit: 50 });
console.log(`${'tags sort=count'.padEnd(32)} ${(((cpuMs() - t0) * 1000) / runs).toFixed(0).padStart(7)} µs`);
{
  // a stream of single-project updates (renamed, newer): each is a put of one project
  const n = 2000;
  t0 = cpuMs();
  for (let i = 0; i < n; i++) {
    const p = projects[Math.floor(rand() * N)]!;
    index.put([{ ...p, name: `${p.name} ${pick(ENGLISH)}`, updatedAt: p.updatedAt + 1e10 + i }]);
  }
  console.log(
    `${'put of one project'.padEnd(32)} ${(((cpuMs() - t0) * 1000) / n).toFixed(0).padStart(7)} µs`,
  );
  t0 = cpuMs();
  const q = { ...base, q: 'engine' };
  for (let i = 0; i < runs; i++) index.findProjects(q);
  console.log(
    `${'q=engine after the updates'.padEnd(32)} ${(((cpuMs() - t0) * 1000) / runs).toFixed(0).padStart(7)} µs`,
  );
}
