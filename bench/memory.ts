import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildContents } from '../packages/core/src/read-model/contents.ts';
import { loadSnapshot, ModelState, saveSnapshot } from '../packages/core/src/read-model/snapshot-file.ts';
import { renderJson } from '../packages/core/src/render-json.ts';
import { toProject } from '../packages/core/src/schemas/project.ts';
import { connect, findProjectDetailsByIds } from '../packages/db/src/index.ts';

/*
 * Where the read model's memory goes (docs/benchmarks.md): the model of a seeded database is
 * built, written as a snapshot and read back, and then taken apart one part at a time: each
 * part's bytes are what a full garbage collection frees when it is dropped (the JS heap and
 * the typed arrays' memory). A string shared by two parts counts for the one dropped last.
 *
 *   node --expose-gc --import tsx bench/memory.ts --database-url postgres://…/db [--details 2000]
 */

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    details: { type: 'string', default: '2000' },
  },
});
const url = values['database-url'];
if (!url) throw new Error('--database-url is required');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
};
const MB = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;

const handle = await connect(url, { poolSize: 2 });
const before = used();
let started = performance.now();
const built = await buildContents(handle.db);
const buildSeconds = (performance.now() - started) / 1000;
const projects = built.index.stats().projects;
const afterBuild = used();
console.log(
  `built ${projects} projects in ${buildSeconds.toFixed(1)} s: heap ${MB(afterBuild.heap - before.heap)}, ` +
    `typed arrays ${MB(afterBuild.buffers - before.buffers)}, rss ${MB(afterBuild.rss)}`,
);

// the snapshot: written, the built model dropped, read back
const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
const header = {
  database: 'bench',
  cluster: 'bench',
  horizon: '1',
  synonymsVersion: '',
  maxUpdated: built.maxUpdated,
  projects,
  savedAt: new Date().toISOString(),
};
started = performance.now();
let bytes = 0;
const steps = saveSnapshot(dir, header, new ModelState(built.index));
for (let s = steps.next(); ; s = steps.next())
  if (s.done) {
    bytes = s.value;
    break;
  }
console.log(`snapshot written: ${MB(bytes)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const state = built as Partial<typeof built>;
delete state.index;
const dropped = used();
started = performance.now();
const loaded = loadSnapshot(dir, () => undefined);
rmSync(dir, { recursive: true, force: true });
if ('reason' in loaded) throw new Error(loaded.reason);
const loadSeconds = (performance.now() - started) / 1000;
const afterLoad = used();
console.log(
  `snapshot read in ${loadSeconds.toFixed(1)} s: heap ${MB(afterLoad.heap - dropped.heap)}, ` +
    `typed arrays ${MB(afterLoad.buffers - dropped.buffers)}, rss ${MB(afterLoad.rss)}`,
);

// the parts of the loaded model, dropped one by one
const rows: [string, number][] = [];
let last = used();
const drop = (name: string, fn: () => void) => {
  fn();
  const now = used();
  rows.push([name, last.heap - now.heap + last.buffers - now.buffers]);
  last = now;
};
const model = loaded.state as unknown as Record<string, unknown>;
const store = (loaded.state.index as unknown as { store: Record<string, unknown> }).store;
const index = loaded.state.index as unknown as Record<string, unknown>;
for (const name of Object.keys(model)) if (name !== 'index') drop(`model.${name}`, () => delete model[name]);
for (const name of Object.keys(store))
  if (store[name] !== null && typeof store[name] === 'object')
    drop(`store.${name}`, () => delete store[name]);
for (const name of Object.keys(index)) drop(`index.${name}`, () => delete index[name]);
delete model.index;
drop('the rest', () => {});

// the detail cache's projects (API shape) and their list items' JSON, per project
const ids = (
  await handle.pool.query<{ id: string }>('select id from projects order by id limit $1', [
    Number(values.details),
  ])
).rows.map((r) => r.id);
let base = used();
const details = (await findProjectDetailsByIds(handle.db, ids)).map(toProject);
let now = used();
const detailBytes = (now.heap - base.heap) / details.length;
base = now;
const rendered = details.map((p) => renderJson(p));
now = used();
const renderedBytes = (now.heap - base.heap + now.buffers - base.buffers) / details.length;
await handle.close();

console.log(`\n| part (read back from the snapshot) | bytes per project | at ${projects} projects |`);
console.log('| --- | ---: | ---: |');
let total = 0;
for (const [name, b] of rows) {
  total += b;
  console.log(`| ${name} | ${(b / projects).toFixed(0)} | ${MB(b)} |`);
}
console.log(`| total | ${(total / projects).toFixed(0)} | ${MB(total)} |`);
console.log(
  `| detail cache: a project in the API's shape | ${detailBytes.toFixed(0)} | (bounded by READ_CACHE_MB) |`,
);
console.log(`| …its rendered JSON | ${renderedBytes.toFixed(0)} | (kept with it) |`);
console.log(`(${rendered.length} details measured)`);
