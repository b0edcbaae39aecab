/*
 * Facets: the threshold of the cost model (packages/search/src/facets.ts, docs/search.md#facets).
 * On the bench's corpus (bench/data.ts: 300 tags, three a project, a few on most projects and
 * most on few), for sets of matches from 1 in 2,048 of the directory to all of it, the CPU time
 * of counting each facet by value (a bitmap AND per value, or a sparse list's bit tests) and by
 * document (a walk of the listed matches), and which way the model picks. Prints, per facet,
 * the density where by value becomes the faster (measured) and where the model switches, and
 * what a word step cost against a document step (the model's VALUE_WORD_STEPS).
 *
 *   node --import tsx bench/facets.ts --projects 100000
 */
import { parseArgs } from 'node:util';
import { Bits } from '../packages/search/src/bitmap.ts';
import { QueryCaches } from '../packages/search/src/caches.ts';
import { SearchContext } from '../packages/search/src/context.ts';
import {
  cheaperWay,
  facetsByDocument,
  facetsByValue,
  VALUE_WORD_STEPS,
} from '../packages/search/src/facets.ts';
import { type FacetName, type IndexedProject, SearchIndex } from '../packages/search/src/index.ts';
import { prng, seededProject, TAG_POOL, tagSlugs } from './data.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: { projects: { type: 'string', default: '100000' }, ms: { type: 'string', default: '40' } },
});
const N = Number(values.projects);
const MS = Number(values.ms);

const slugs = tagSlugs(TAG_POOL);
const tagIdOf = new Map(TAG_POOL.map((t, i) => [t, `tag${i}`]));
const index = new SearchIndex();
index.putTags(
  TAG_POOL.map((t, i) => ({ id: `tag${i}`, name: t.name, nameEn: t.nameEn ?? null, slug: slugs[i]! })),
);
for (let i = 0; i < N; i += 10_000) {
  const batch: IndexedProject[] = [];
  for (let j = i; j < Math.min(N, i + 10_000); j++) {
    const p = seededProject(j);
    batch.push({
      id: `c${j.toString(36).padStart(10, '0')}`,
      name: p.name,
      nameEn: p.nameEn ?? null,
      slug: `project-${j}`,
      description: p.description,
      descriptionEn: p.descriptionEn ?? null,
      status: j % 7 === 0 ? 'ARCHIVED' : 'ACTIVE',
      source: null,
      createdAt: 1_700_000_000_000 + j,
      updatedAt: 1_700_000_000_000 + j,
      tagIds: p.tags.map((t) => tagIdOf.get(t)!),
      linkTypes: p.links.map((l) => l.type),
      linkUrls: p.links.map((l) => l.url),
    });
  }
  index.put(batch, true);
}
index.prepare();
const ix = index.store;
const cx = new SearchContext(ix, new QueryCaches());

/** Microseconds per call of `fn`, the best of three runs of MS milliseconds each. */
function time(fn: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    let calls = 0;
    const started = performance.now();
    let now = started;
    while (now - started < MS) {
      fn();
      calls++;
      now = performance.now();
    }
    best = Math.min(best, ((now - started) * 1000) / calls);
  }
  return best;
}

const fmt = (d: number | undefined) => (d === undefined ? 'never' : `1/${(1 / d).toFixed(1)}`);
const random = prng(42);
const NAMES: FacetName[] = ['status', 'linkTypes', 'tags'];
const rows: string[] = [];
const crossing = new Map<FacetName, { measured?: number; model?: number; ratios: number[] }>();
for (const name of NAMES) crossing.set(name, { ratios: [] });

for (let k = 11; k >= 0; k -= 0.5) {
  const density = 2 ** -k;
  const docs = new Bits((ix.end + 31) >>> 5);
  for (let d = 0; d < ix.end; d++) if (random() < density) docs.add(d);
  const n = docs.count();
  const words = Math.max(0, docs.hi - docs.lo);
  const cells: string[] = [];
  for (const name of NAMES) {
    const byValue = time(() => cx.run(() => facetsByValue(cx, [name], docs)));
    const byDocument = time(() => cx.run(() => facetsByDocument(cx, [name], docs, n)));
    const model = cheaperWay(ix, name, docs, n);
    const c = crossing.get(name)!;
    // the lowest density from which by value stays the faster (and the model's choice stays V)
    if (byValue >= byDocument) c.measured = undefined;
    else c.measured ??= density;
    if (model !== 'values') c.model = undefined;
    else c.model ??= density;
    // a word step against a document step, from the two times (status and link types: values × words)
    if (name !== 'tags' && n > 0) {
      const values = name === 'status' ? 2 : 4;
      c.ratios.push(byValue / (values * words) / (byDocument / n));
    }
    cells.push(`${byValue.toFixed(1)} / ${byDocument.toFixed(1)} ${model === 'values' ? 'V' : 'D'}`);
  }
  rows.push(`| ${fmt(density).padStart(6)} | ${String(n).padStart(7)} | ${cells.join(' | ')} |`);
}

console.log(`${N} projects; µs per count, by value / by document, and the model's choice (V, D)\n`);
console.log('| matches | n | status | linkTypes | tags |');
console.log('| ------- | - | ------ | --------- | ---- |');
for (const row of rows) console.log(row);
console.log(`\nVALUE_WORD_STEPS now ${VALUE_WORD_STEPS}`);
for (const [name, c] of crossing) {
  const sorted = [...c.ratios].sort((a, b) => a - b);
  const median = sorted.length > 0 ? sorted[sorted.length >> 1]!.toFixed(2) : '-';
  console.log(
    `${name}: by value faster from ${fmt(c.measured)} of the directory; the model switches at ${fmt(c.model)}` +
      (name === 'tags' ? '' : `; a word step / a document step = ${median} (median)`),
  );
}
