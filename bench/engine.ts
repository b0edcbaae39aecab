/*
 * The search engine alone, in this process (no HTTP, no database), on the bench's corpus
 * (bench/data.ts: twenty common words per language, four per project, so that one matches
 * ~18.5% of the directory): the build, the memory when ready, and the CPU time of each search
 * scenario of `pnpm bench`, words varying per query, as mean and p99. Then the hostile case
 * of 200-character queries of sixteen long words on a directory of 900,000 distinct
 * words.
 *
 *   node --import tsx bench/engine.ts --projects 1000000
 *   node --cpu-prof --import tsx bench/engine.ts --projects 100000 --only zh
 */
import { parseArgs } from 'node:util';
import { type IndexedProject, type ProjectQuery, SearchIndex } from '../packages/search/src/index.ts';
import { EN_COMMON, prng, seededProject, TAG_POOL, tagSlugs, ZH_COMMON } from './data.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    projects: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '2000' },
    only: { type: 'string', default: '' },
    'hostile-words': { type: 'string', default: '900000' },
  },
});
const N = Number(values.projects);
const QUERIES = Number(values.queries);

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const slugs = tagSlugs(TAG_POOL);
const tags = TAG_POOL.map((t, i) => ({
  id: `tag${i}`,
  name: t.name,
  nameEn: t.nameEn ?? null,
  slug: slugs[i]!,
}));
const tagIdOf = new Map(TAG_POOL.map((t, i) => [t, `tag${i}`]));

function indexed(i: number): IndexedProject {
  const p = seededProject(i);
  const t = 1_700_000_000_000 + i * 1000;
  return {
    id: `c${i.toString(36).padStart(10, '0')}`,
    name: p.name,
    nameEn: p.nameEn ?? null,
    slug: `project-${i}`,
    description: p.description,
    descriptionEn: p.descriptionEn ?? null,
    status: p.status ?? 'ACTIVE',
    source: p.source ?? null,
    createdAt: t,
    updatedAt: t + (i % 977) * 1000,
    tagIds: p.tags.map((t) => tagIdOf.get(t)!),
    linkTypes: p.links.map((l) => l.type),
    linkUrls: p.links.map((l) => l.url),
  };
}

/** Builds an index of n projects in batches of 10,000 (as the read model does); seconds of wall time. */
function build(n: number, project: (i: number) => IndexedProject): { index: SearchIndex; seconds: number } {
  const index = new SearchIndex();
  const started = performance.now();
  index.putTags(tags);
  for (let i = 0; i < n; i += 10_000) {
    const batch: IndexedProject[] = [];
    for (let j = i; j < Math.min(n, i + 10_000); j++) batch.push(project(j));
    index.put(batch);
  }
  index.prepare();
  return { index, seconds: (performance.now() - started) / 1000 };
}

const base: ProjectQuery = {
  tagSlugs: [],
  tagMode: 'all',
  linkTypes: [],
  sort: 'relevance',
  order: 'desc',
  limit: 20,
  facets: [],
};

// one typo in each common English word of 5+ letters (the words of 4 letters allow none)
const typo = (w: string) => `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`;
const TYPOS = EN_COMMON.filter((w) => w.length >= 5).map(typo);
const PREFIXES = [...new Set(EN_COMMON.map((w) => w.slice(0, 2)))];

/** The scenarios: each makes the query of request r (words vary per request, as in `pnpm bench`). */
const scenarios: [string, (r: () => number) => Partial<ProjectQuery>][] = [
  ['zh', (r) => ({ q: ZH_COMMON[Math.floor(r() * 20)] })],
  ['en', (r) => ({ q: EN_COMMON[Math.floor(r() * 20)] })],
  ['two', (r) => ({ q: `${EN_COMMON[Math.floor(r() * 20)]} ${ZH_COMMON[Math.floor(r() * 20)]}` })],
  ['prefix', (r) => ({ q: PREFIXES[Math.floor(r() * PREFIXES.length)] })],
  ['typo', (r) => ({ q: TYPOS[Math.floor(r() * TYPOS.length)] })],
  ['facets', (r) => ({ q: ZH_COMMON[Math.floor(r() * 20)], facets: ['tags', 'status', 'linkTypes'] })],
  ['list', (r) => ({ sort: r() < 0.5 ? 'updated' : 'created' })],
];

function measure(index: SearchIndex, make: (r: () => number) => Partial<ProjectQuery>) {
  const r = prng(11);
  for (let i = 0; i < 50; i++) index.findProjects({ ...base, ...make(r) });
  const times = new Float64Array(QUERIES);
  let total = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < QUERIES; i++) {
    const q = { ...base, ...make(r) };
    const t0 = performance.now();
    const res = index.findProjects(q);
    times[i] = performance.now() - t0;
    total += res.total;
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  const mean = times.reduce((a, b) => a + b, 0) / QUERIES;
  return {
    cpu: (cpu.user + cpu.system) / 1000 / QUERIES,
    mean,
    p99: times[Math.ceil(0.99 * QUERIES) - 1]!,
    max: times[QUERIES - 1]!,
    share: total / QUERIES / N,
  };
}

const rssBefore = process.memoryUsage().rss;
const { index, seconds } = build(N, indexed);
global.gc?.();
const mem = process.memoryUsage();
console.log(
  `engine: ${N.toLocaleString('en-US')} projects built in ${seconds.toFixed(1)} s; ` +
    `resident ${mb(mem.rss)} (+${mb(mem.rss - rssBefore)}), heap ${mb(mem.heapUsed)}, array buffers ${mb(mem.arrayBuffers)}`,
);
console.log('scenario   cpu ms  mean ms   p99 ms   max ms   matched share');
for (const [key, make] of scenarios) {
  if (values.only && !values.only.split(',').includes(key)) continue;
  const m = measure(index, make);
  console.log(
    `${key.padEnd(9)} ${m.cpu.toFixed(3).padStart(7)} ${m.mean.toFixed(3).padStart(8)} ${m.p99.toFixed(3).padStart(8)} ${m.max.toFixed(3).padStart(8)}   ${(m.share * 100).toFixed(1)}%`,
  );
}

// Related projects (docs/search.md#related-projects) of random projects, 6 each.
if (!values.only || values.only.split(',').includes('related')) {
  const r = prng(13);
  const id = () => indexed(Math.floor(r() * N)).id;
  for (let i = 0; i < 50; i++) index.findRelated(id(), 6);
  const ids = Array.from({ length: QUERIES }, id);
  const times = new Float64Array(QUERIES);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < QUERIES; i++) {
    const t0 = performance.now();
    index.findRelated(ids[i]!, 6);
    times[i] = performance.now() - t0;
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  console.log(
    `related   ${((cpu.user + cpu.system) / 1000 / QUERIES).toFixed(3).padStart(7)} ${(times.reduce((a, b) => a + b, 0) / QUERIES).toFixed(3).padStart(8)} ${times[Math.ceil(0.99 * QUERIES) - 1]!.toFixed(3).padStart(8)} ${times[QUERIES - 1]!.toFixed(3).padStart(8)}`,
  );
}

// The hostile case: a directory whose descriptions hold 900,000 distinct long words, queried
// with sixteen 12-letter words (with and without typos) of 200 characters.
if (!values.only || values.only.split(',').includes('hostile')) {
  const words = Number(values['hostile-words']);
  const perProject = 9;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = (k: number) => {
    // a distinct word per k: its base-26 digits spread over 10–13 letters
    let s = '';
    let x = k * 7919 + 104729;
    for (let j = 0; j < 10 + (k % 4); j++) {
      s += letters[x % 26];
      x = Math.floor(x / 26) + j * 17 + k;
    }
    return s;
  };
  const { index: hostile, seconds: hs } = build(Math.ceil(words / perProject), (i) => {
    const p = indexed(i);
    const own = Array.from({ length: perProject }, (_, j) => word(i * perProject + j)).join(' ');
    return { ...p, descriptionEn: own };
  });
  const r = prng(5);
  const queries = Array.from({ length: 20 }, () => {
    const ws = Array.from({ length: 16 }, () => word(Math.floor(r() * words)).slice(0, 11));
    return ws.join(' ').slice(0, 200);
  });
  let worst = 0;
  let worstCpu = 0;
  let sum = 0;
  let sumCpu = 0;
  hostile.findProjects({ ...base, q: 'warm' });
  for (const q of queries) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    hostile.findProjects({ ...base, q });
    const c = process.cpuUsage(c0);
    const ms = performance.now() - t0;
    const cpu = (c.user + c.system) / 1000;
    worst = Math.max(worst, ms);
    worstCpu = Math.max(worstCpu, cpu);
    sum += ms;
    sumCpu += cpu;
  }
  console.log(
    `hostile: ${words.toLocaleString('en-US')} distinct words (built in ${hs.toFixed(1)} s), ` +
      `20 queries of 16 words / 200 characters: CPU mean ${(sumCpu / 20).toFixed(1)} ms, max ${worstCpu.toFixed(1)} ms; ` +
      `wall mean ${(sum / 20).toFixed(1)} ms, max ${worst.toFixed(1)} ms`,
  );
}
