import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { renderChanges, runChangesBench } from './changes.ts';
import { runExportBench } from './export.ts';
import { renderHistory, runHistoryBench } from './history.ts';
import { measure } from './measure.ts';
import { compareUpserts, type Freshness, measureFreshness, modelFigures } from './model.ts';
import { renderMove, runMoveBench } from './move.ts';
import { type Child, createDatabase, type Database, memoryOf, ROOT, startChild } from './processes.ts';
import { type QueueSizeResult, runQueueBench } from './queue.ts';
import { QUEUE_END, QUEUE_START, renderQueueSection, withQueueSection } from './queue-section.ts';
import {
  RELEVANCE_END,
  RELEVANCE_START,
  type RelevanceResult,
  renderRelevance,
  runRelevanceBench,
  withRelevanceSection,
} from './relevance.ts';
import { describeMachine, type Report, renderSummary, type SizeResult } from './report.ts';
import { renderMarkdown } from './report-markdown.ts';
import { measureRestart } from './restart.ts';
import type { Scenario } from './scenario.ts';
import { scenarios } from './scenarios.ts';
import { prepareSearch, searchScenarios } from './search.ts';
import { DEFAULT_TASKS, type SeedResult, seedProjects, writeProjects } from './seed.ts';
import { seedTasks } from './seed-tasks.ts';
import { runStandbyBench } from './standby.ts';
import { currentSection } from './web.ts';
import {
  renderWideBodies,
  runWideBodiesBench,
  WIDE_END,
  WIDE_START,
  type WideBodiesResult,
  withWideBodiesSection,
} from './wide-bodies.ts';
import { runWithWriter, type WriterRun } from './writer.ts';
import { runWritesBench, type WritesResult } from './writes.ts';
import { renderWritesSection, WRITES_END, WRITES_START, withWritesSection } from './writes-section.ts';

// `pnpm bench`: see the "How to run" section of bench/RESULTS.md (written from report.ts).

const { values: flags } = parseArgs({
  // `pnpm bench -- --write` passes the `--` along; it separates nothing here.
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    sizes: { type: 'string' },
    tasks: { type: 'string' },
    connections: { type: 'string' },
    'batch-connections': { type: 'string' },
    'upsert-connections': { type: 'string' },
    'db-pool-size': { type: 'string' },
    'claims-per-second': { type: 'string' },
    scenarios: { type: 'string' },
    'queue-sizes': { type: 'string' },
    'api-max': { type: 'string' },
    'freshness-samples': { type: 'string' },
    before: { type: 'string' },
    'compare-projects': { type: 'string' },
    'compare-rounds': { type: 'string' },
    'history-projects': { type: 'string' },
    'writes-projects': { type: 'string' },
    'move-projects': { type: 'string' },
    'writes-batches': { type: 'string' },
    'writes-backends': { type: 'string' },
    'writes-before': { type: 'string' },
    'cpu-prof': { type: 'string' },
    'writer-rate': { type: 'string' },
    'writer-batch': { type: 'string' },
    'database-url': { type: 'string' },
    'response-cache-mb': { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

function setting(flag: keyof typeof flags, env: string, fallback: string): string {
  const value = flags[flag] ?? process.env[env];
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function integer(flag: keyof typeof flags, env: string, fallback: number, min: number): number {
  const raw = setting(flag, env, String(fallback));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag} / ${env} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

const settings = {
  duration: integer('duration', 'BENCH_DURATION', 10, 1),
  warmup: integer('warmup', 'BENCH_WARMUP', 5, 0),
  connections: integer('connections', 'BENCH_CONNECTIONS', 64, 1),
  batchConnections: integer('batch-connections', 'BENCH_BATCH_CONNECTIONS', 16, 1),
  upsertConnections: integer('upsert-connections', 'BENCH_UPSERT_CONNECTIONS', 4, 1),
  dbPoolSize: integer('db-pool-size', 'BENCH_DB_POOL_SIZE', 10, 1),
  sizes: setting('sizes', 'BENCH_SIZES', '1000,100000,1000000')
    .split(',')
    .map((s) => Number(s.trim())),
};
if (settings.sizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--sizes must list integers >= 1');
// Sizes up to this are written through endpoint 1, as users do; larger ones straight into the tables.
const apiMax = integer('api-max', 'BENCH_API_MAX', 100_000, 0);
const freshnessSamples = integer('freshness-samples', 'BENCH_FRESHNESS_SAMPLES', 300, 1);
// The upserts of the commit before the read model, side by side with this checkout's.
const before = setting('before', 'BENCH_BEFORE', '898dbff');
const compareProjects = integer('compare-projects', 'BENCH_COMPARE_PROJECTS', 10_000, 1);
const compareRounds = integer('compare-rounds', 'BENCH_COMPARE_ROUNDS', 2, 1);
// A directory for a CPU profile of the measured server at each size (node --cpu-prof), written when it stops.
const cpuProfile = setting('cpu-prof', 'BENCH_CPU_PROF', '');
// The writer of the `writer-…` scenarios: projects per second it tries to update, and per batch.
const writerRate = integer('writer-rate', 'BENCH_WRITER_RATE', 50, 1);
const writerBatch = integer('writer-batch', 'BENCH_WRITER_BATCH', 5, 1);
const claimsPerSecond = integer('claims-per-second', 'BENCH_CLAIMS_PER_SECOND', 5000, 1);
const tasks = integer('tasks', 'BENCH_TASKS', DEFAULT_TASKS, 1);
const only = setting('scenarios', 'BENCH_SCENARIOS', '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// RESPONSE_CACHE_MB of the measured server (unset: its default); 0 measures every answer afresh.
const responseCacheMb = setting('response-cache-mb', 'BENCH_RESPONSE_CACHE_MB', '');
const adminUrl = setting('database-url', 'BENCH_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test');
const apiKey = `bench-${randomBytes(12).toString('hex')}`;

/** The text between two markers of a file (markers included), if the file has them. */
function keptBetween(file: string, start: string, end: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const at = text.indexOf(start);
  const to = text.indexOf(end);
  return at >= 0 && to > at ? text.slice(at, to + end.length) : undefined;
}

// Whatever happens, the children stop and the databases go.
const children = new Set<Child>();
const databases = new Set<Database>();
async function cleanUp() {
  await Promise.allSettled([...children].map((c) => c.stop()));
  children.clear();
  await Promise.allSettled([...databases].map((d) => d.drop()));
  databases.clear();
}
process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping the servers and dropping the databases');
  void cleanUp().then(() => process.exit(130));
});

const SERVER = join(ROOT, 'apps/server/src/main.ts');
const wanted = (key: string) => only.length === 0 || only.includes(key);

// `--scenarios standby`: a primary and a hot standby of the bench's own (bench/standby.ts), alone.
if (only.includes('standby')) {
  try {
    const table = await runStandbyBench({
      projects: integer('sizes', 'BENCH_SIZES', 20_000, 100),
      duration: settings.duration,
      warmup: settings.warmup,
      connections: settings.connections,
      writesPerSecond: integer('writer-rate', 'BENCH_WRITER_RATE', 200, 1),
      children,
    });
    console.log(table);
  } finally {
    await cleanUp();
  }
  process.exit(0);
}

// `--scenarios export`: GET /api/export on PostgreSQL and PGlite (bench/export.ts), alone.
if (only.includes('export')) {
  try {
    const table = await runExportBench({
      adminUrl,
      apiKey,
      projects: integer('sizes', 'BENCH_SIZES', 100_000, 100),
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
    });
    console.log(table);
  } finally {
    await cleanUp();
  }
  process.exit(0);
}

// `--scenarios move`: `pnpm db:move` of an embedded directory into PostgreSQL (bench/move.ts), alone.
if (only.includes('move')) {
  try {
    console.log('\n== move: an embedded directory (each project edited 3 times) into PostgreSQL');
    const result = await runMoveBench({
      adminUrl,
      projects: integer('move-projects', 'BENCH_MOVE_PROJECTS', 10_000, 100),
      edits: 3,
      track: (x) => databases.add(x),
    });
    console.log(renderMove(result).join('\n'));
  } finally {
    await cleanUp();
  }
  process.exit(0);
}

/**
 * A named key for the keyed read, with a limit of its own that the bench never
 * reaches: every request is looked up and counted (on PostgreSQL in leases of 1/20 of the
 * limit, docs/keys-and-limits.md), none refused.
 */
async function createNamedKey(url: string, adminKey: string): Promise<string> {
  const res = await fetch(`${url}/api/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({
      name: 'bench-reader',
      scopes: ['projects:write'],
      rateLimit: { requests: 1_000_000, windowSeconds: 60 },
    }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`creating the bench key: ${res.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { key: string } }).data.key;
}

/** `/healthz?verbose=1` asked on a connection of its own: its body when 200, else undefined. */
function healthOnNewConnection(url: string): Promise<{ process?: number } | undefined> {
  return new Promise((resolve) => {
    const req = httpGet(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(text) as { process?: number }) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.on('error', () => resolve(undefined));
  });
}

/**
 * `processes`: GET by slug (5,000 warm slugs) and a search by a common Chinese word, on `one`
 * and on a server started with WEB_CONCURRENCY=2 on the same database, alternately (two rounds),
 * printed as req/s and their ratio. Reported by hand in RESULTS.md ("Sixth run").
 */
async function compareProcesses(one: Child, env: Record<string, string>, list: Scenario[]): Promise<void> {
  const two = await startChild(
    'server-2p',
    SERVER,
    { ...env, WEB_CONCURRENCY: '2' },
    { readyTimeoutSeconds: 1800 },
  );
  children.add(two);
  try {
    // both processes of the pair answer /healthz (each builds its own model)
    const seen = new Set<number>();
    // a new connection per ask: a process takes connections, not requests (whichever accepts first)
    for (let i = 0; i < 600 && seen.size < 2; i++) {
      const body = await healthOnNewConnection(`${two.url}/healthz?verbose=1`);
      if (body?.process !== undefined) seen.add(body.process);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (seen.size < 2) throw new Error('WEB_CONCURRENCY=2: the second process never answered /healthz 200');
    const pick = (key: string) =>
      list.find((s) => s.key === key) ?? searchScenarios(settings).find((s) => s.key === key);
    const measured = [pick('slug-unkeyed'), pick('search-zh')].filter((s): s is Scenario => s !== undefined);
    console.log(`  WEB_CONCURRENCY=2 (${seen.size} processes answering) against one process:`);
    for (const scenario of measured) {
      const rates: [number, number][] = [];
      for (let round = 0; round < 2; round++) {
        const a = await measure(scenario, one, settings);
        const b = await measure(scenario, two, settings);
        rates.push([a.reqPerSec, b.reqPerSec]);
      }
      console.log(
        `  processes-${scenario.key} … one ${rates.map(([a]) => Math.round(a)).join(' / ')} req/s, ` +
          `two ${rates.map(([, b]) => Math.round(b)).join(' / ')} req/s, ` +
          `two ÷ one ${rates.map(([a, b]) => (b / a).toFixed(2)).join(' / ')}`,
      );
    }
  } finally {
    await two.stop();
    children.delete(two);
  }
}

async function runSize(projects: number): Promise<SizeResult> {
  console.log(`\n== ${projects.toLocaleString('en-US')} projects, ${tasks.toLocaleString('en-US')} tasks`);
  const database = await createDatabase(adminUrl, String(projects));
  databases.add(database);
  const handle = await connect(database.url, { poolSize: 3 });
  const env = {
    DATABASE_URL: database.url,
    WEBHOOK_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: String(settings.dbPoolSize),
    ...(responseCacheMb !== '' && { RESPONSE_CACHE_MB: responseCacheMb }),
  };
  const start = async (name: string, nodeArgs: string[] = []) => {
    // A million projects take a while to build into a model; the bench waits for it.
    const child = await startChild(name, SERVER, env, { readyTimeoutSeconds: 1800, nodeArgs });
    children.add(child);
    return child;
  };
  const stop = async (child: Child) => {
    await child.stop();
    children.delete(child);
  };
  try {
    await migrateToLatest(handle.db);
    const started = performance.now();
    const via = projects <= apiMax ? 'api' : 'sql';
    let written: Awaited<ReturnType<typeof seedProjects>>;
    if (via === 'api') {
      const writer = await start('writer');
      written = await writeProjects(writer.url, apiKey, projects, settings.upsertConnections);
      await stop(writer);
    } else {
      written = await seedProjects(handle.pool, projects);
      const searchSeconds = await prepareSearch(handle.db);
      if (searchSeconds !== undefined) console.log(`search columns filled in ${searchSeconds.toFixed(1)} s`);
    }
    const projectSeconds = (performance.now() - started) / 1000;
    const { tasks: seededTasks, vacuumSeconds } = await seedTasks(handle.pool, tasks, written);
    const seeded: SeedResult = {
      projects,
      slugs: written.slugs,
      tasks: seededTasks,
      via,
      seconds: (performance.now() - started) / 1000,
      projectSeconds,
      vacuumSeconds,
    };
    console.log(
      `seeded in ${seeded.seconds.toFixed(1)} s (projects ${via === 'api' ? 'through endpoint 1' : 'with SQL'} ` +
        `${projectSeconds.toFixed(1)} s, VACUUM ANALYZE ${vacuumSeconds.toFixed(1)} s) into ${database.name}`,
    );

    // Started on the seeded database, the server builds its read model before /healthz is 200.
    const server = await start('server', cpuProfile ? ['--cpu-prof', '--cpu-prof-dir', cpuProfile] : []);
    const model = await modelFigures(server);
    console.log(
      `server pid ${server.pid} at ${server.url}: ready after ${server.readySeconds.toFixed(1)} s` +
        `${model.buildSeconds === undefined ? '' : ` (model built in ${model.buildSeconds.toFixed(1)} s)`}` +
        `${model.ready ? `, ${(model.ready.rss / 2 ** 20).toFixed(0)} MB resident` : ''}`,
    );
    const baseline = await startChild('baseline', join(ROOT, 'bench/baseline-server.ts'), env);
    children.add(baseline);
    console.log(`baseline pid ${baseline.pid} at ${baseline.url}`);

    const namedKey = wanted('slug-keyed') ? await createNamedKey(server.url, apiKey) : undefined;
    const all = scenarios(
      {
        apiKey,
        seed: seeded,
        pool: handle.pool,
        runTag: randomBytes(3).toString('hex'),
        ...(namedKey && { namedKey }),
      },
      { ...settings, claimsPerSecond },
    );
    const list = all.filter((s) => wanted(s.key));
    const measurements = [];
    for (const scenario of list) {
      process.stdout.write(`  ${scenario.key} … `);
      const m = await measure(scenario, scenario.target === 'baseline' ? baseline : server, settings);
      measurements.push(m);
      console.log(
        `${Math.round(m.reqPerSec)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms` +
          `${m.cpuMsPerRequest === undefined ? '' : `, ${m.cpuMsPerRequest.toFixed(2)} ms CPU/req`}` +
          `${m.non2xx + m.errors > 0 ? `, ${m.non2xx} non-2xx, ${m.errors} without reply` : ''}`,
      );
    }
    // autocannon drops its connections at the end with requests in flight; let them finish.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stop(baseline);
    // Searches while a writer updates projects (bench/writer.ts): `writer` runs them all.
    const withWriter = searchScenarios(settings).filter((s) => wanted('writer') || wanted(`writer-${s.key}`));
    let writer: WriterRun[] | undefined;
    if (withWriter.length > 0) {
      console.log(`  while a writer updates ${writerRate} projects/s in batches of ${writerBatch}:`);
      writer = await runWithWriter(
        withWriter,
        server,
        settings,
        { apiKey, projects, rate: writerRate, batch: writerBatch },
        (line) => console.log(line),
      );
    }
    const end = memoryOf(server.pid);
    if (end) model.end = end;

    // WEB_CONCURRENCY=2 against this one process: a second server of two processes
    // on the same database, the two measured in turn, twice.
    if (wanted('processes')) await compareProcesses(server, env, all);
    // a restart from the read model's snapshot (bench/restart.ts)
    if (wanted('restart')) await measureRestart(SERVER, env, children);

    // Freshness: a second process on the same database (it builds its own model first) takes
    // the writes; the measured server is polled for them.
    let freshness: Freshness | undefined;
    if (wanted('freshness')) {
      const writer = await start('writer');
      freshness = await measureFreshness(writer, server, apiKey, freshnessSamples);
      console.log(
        `  freshness: write through another process → found by search here, p50 ${freshness.p50.toFixed(1)} ms, ` +
          `p99 ${freshness.p99.toFixed(1)} ms (${freshness.samples} writes)`,
      );
      await stop(writer);
    }
    await stop(server);
    return {
      projects,
      tasks,
      seedSeconds: seeded.seconds,
      via,
      measurements,
      model,
      ...(freshness && { freshness }),
      ...(writer && { writer }),
      serverLog: server.output(),
    };
  } finally {
    await handle.close();
    await database.drop();
    databases.delete(database);
  }
}

try {
  const admin = await connect(adminUrl, { poolSize: 1 });
  const machine = await describeMachine(admin.pool).finally(() => admin.close());
  console.log(
    `${machine.cpu} × ${machine.cores}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.postgres}, ` +
      `load average ${machine.load.toFixed(2)}`,
  );
  if (machine.load > machine.cores / 2)
    console.log('warning: the machine is busy; the figures will be low and noisy');
  const report: Report = { machine, settings, sizes: [] };
  // `--scenarios queue` runs the queue part alone (bench/queue.ts)
  const queueOnly =
    only.length > 0 &&
    only.every((key) => ['queue', 'history', 'writes', 'wide-bodies', 'relevance'].includes(key));
  if (!queueOnly) for (const projects of settings.sizes) report.sizes.push(await runSize(projects));
  if (!queueOnly && before !== 'none' && wanted('upsert-before')) {
    console.log(`\n== upserts: the server of ${before} (before the read model) and this one`);
    report.upserts = await compareUpserts({
      ...settings,
      adminUrl,
      apiKey,
      commit: before,
      beforeRoot: join(tmpdir(), `bench-before-${before}`),
      projects: compareProjects,
      rounds: compareRounds,
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
      untrack: (x) => ('stop' in x ? children.delete(x) : databases.delete(x)),
    });
  }
  if (!queueOnly && (only.length === 0 || only.includes('changes'))) {
    console.log('\n== change feed and webhooks');
    report.changes = await runChangesBench({
      ...settings,
      adminUrl,
      apiKey,
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
    });
    console.log(renderChanges(report.changes).join('\n'));
  }
  // `--scenarios history` runs history's part (bench/history.ts)
  if (only.length === 0 || only.includes('history')) {
    console.log('\n== history: revisions on every write, and a project with 1,000 of them');
    report.history = await runHistoryBench({
      adminUrl,
      apiKey,
      duration: settings.duration,
      dbPoolSize: settings.dbPoolSize,
      projects: integer('history-projects', 'BENCH_HISTORY_PROJECTS', 2000, 100),
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
    });
    console.log(renderHistory(report.history).join('\n'));
  }
  // `--scenarios writes` runs the write path's part (bench/writes.ts)
  let writes: WritesResult | undefined;
  if (only.length === 0 || only.includes('writes')) {
    const commit = setting('writes-before', 'BENCH_WRITES_BEFORE', 'e4fd001');
    writes = await runWritesBench({
      adminUrl,
      apiKey,
      commit,
      beforeRoot: join(tmpdir(), `bench-before-${commit}`),
      projects: integer('writes-projects', 'BENCH_WRITES_PROJECTS', 100_000, 1000),
      batches: integer('writes-batches', 'BENCH_WRITES_BATCHES', 100, 4),
      clients: settings.upsertConnections,
      dbPoolSize: settings.dbPoolSize,
      freshnessSamples: Math.min(freshnessSamples, 200),
      backends: setting('writes-backends', 'BENCH_WRITES_BACKENDS', 'PostgreSQL,PGlite')
        .split(',')
        .map((b) => (b.trim().toLowerCase() === 'pglite' ? 'PGlite' : 'PostgreSQL')),
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
      untrack: (x) => ('stop' in x ? children.delete(x) : databases.delete(x)),
    });
    console.log(renderWritesSection(writes));
  }
  // `--scenarios wide-bodies` runs the wide bodies' part (bench/wide-bodies.ts)
  let wide: WideBodiesResult | undefined;
  if (only.length === 0 || only.includes('wide-bodies')) {
    console.log('\n== wide bodies: /healthz while eight clients send 5 MB bodies of 1.7 million items');
    wide = await runWideBodiesBench({
      adminUrl,
      apiKey,
      duration: settings.duration,
      dbPoolSize: settings.dbPoolSize,
      track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
    });
    console.log(renderWideBodies(wide, ''));
  }
  // `--scenarios relevance` runs the judged set through this engine and its peers (bench/relevance.ts)
  let relevance: RelevanceResult | undefined;
  if (only.length === 0 || only.includes('relevance')) {
    console.log('\n== relevance: the judged set through this engine, MiniSearch and Orama');
    relevance = await runRelevanceBench();
    console.log(renderRelevance(relevance, ''));
  }
  if (!queueOnly) console.log(renderSummary(report));
  let queue: QueueSizeResult[] = [];
  if (only.length === 0 || only.includes('queue')) {
    const queueSizes = setting('queue-sizes', 'BENCH_QUEUE_SIZES', '20000,1000000').split(',').map(Number);
    queue = await runQueueBench({
      adminUrl,
      apiKey,
      duration: settings.duration,
      dbPoolSize: settings.dbPoolSize,
      sizes: queueSizes,
    });
  }
  if (flags.write) {
    const file = join(ROOT, 'bench/RESULTS.md');
    // Kept: the web console's section (bench/web.ts writes it) and the written analysis of the
    // search figures (between its markers).
    // The queue's section stays as it was when the queue was not run.
    const web = currentSection();
    const analysis = keptBetween(file, '<!-- search analysis -->', '<!-- /search analysis -->');
    // the write path's profile (bench/write-profile.ts), written by hand from its output
    const writeProfile = keptBetween(file, '<!-- write profile -->', '<!-- /write profile -->');
    // the request path and the processes, written by hand from their runs
    const serving = keptBetween(file, '<!-- serving -->', '<!-- /serving -->');
    const queueSection = queue.length ? renderQueueSection(queue) : keptBetween(file, QUEUE_START, QUEUE_END);
    const text = queueOnly
      ? readFileSync(file, 'utf8')
      : renderMarkdown(report) +
        [analysis, writeProfile, serving, web].map((x) => (x ? `\n${x}\n` : '')).join('');
    const withQueue = queueSection ? withQueueSection(text, queueSection) : text;
    const writesSection = writes ? renderWritesSection(writes) : keptBetween(file, WRITES_START, WRITES_END);
    const withWrites = writesSection ? withWritesSection(withQueue, writesSection) : withQueue;
    const wideSection = wide
      ? renderWideBodies(wide, `Load average ${machine.load.toFixed(2)} when the run began.`)
      : keptBetween(file, WIDE_START, WIDE_END);
    const withWide = wideSection ? withWideBodiesSection(withWrites, wideSection) : withWrites;
    const relevanceSection = relevance
      ? renderRelevance(
          relevance,
          `${new Date().toISOString().slice(0, 10)}, load average ${machine.load.toFixed(2)}:`,
        )
      : keptBetween(file, RELEVANCE_START, RELEVANCE_END);
    writeFileSync(file, relevanceSection ? withRelevanceSection(withWide, relevanceSection) : withWide);
    // Biome formats Markdown too (aligned tables): leave the file as `pnpm lint` wants it.
    execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', file], { stdio: 'ignore' });
    console.log(`wrote ${file}`);
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
