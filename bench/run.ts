import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../packages/db/src/index.ts';
import { renderChanges, runChangesBench } from './changes.ts';
import { writeFigures } from './figures.ts';
import { sizeFigures, writesFigures } from './figures-of.ts';
import { renderHistory, runHistoryBench } from './history.ts';
import { compareUpserts } from './model.ts';
import { ROOT } from './processes.ts';
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
import { describeMachine, type Report, renderSummary } from './report.ts';
import { renderMarkdown } from './report-markdown.ts';
import { runAlone } from './run-alone.ts';
import {
  adminUrl,
  apiKey,
  before,
  compareProjects,
  compareRounds,
  flags,
  freshnessSamples,
  integer,
  only,
  setting,
  settings,
  wanted,
} from './run-settings.ts';
import { runSize } from './run-size.ts';
import { children, cleanUp, databases } from './run-tracked.ts';
import { currentSection } from './web.ts';
import {
  renderWideBodies,
  runWideBodiesBench,
  WIDE_END,
  WIDE_START,
  type WideBodiesResult,
  withWideBodiesSection,
} from './wide-bodies.ts';
import { runWritesBench, type WritesResult } from './writes.ts';
import { renderWritesSection, WRITES_END, WRITES_START, withWritesSection } from './writes-section.ts';

// `pnpm bench`: see the "How to run" section of bench/LAST-RUN.md (written from report-markdown.ts). Its
// settings are in run-settings.ts, one size's run in run-size.ts, what a run must stop in run-tracked.ts.

function readTextOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

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

process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping the servers and dropping the databases');
  void cleanUp().then(() => process.exit(130));
});

// The parts that run alone (standby, export, scaling, move): bench/run-alone.ts.
if (await runAlone()) process.exit(0);

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
    // the page of current figures (bench/figures.ts), then this run's detailed tables beside it
    await writeFigures([...(queueOnly ? [] : sizeFigures(report)), ...(writes ? writesFigures(writes) : [])]);
    const file = join(ROOT, 'bench/LAST-RUN.md');
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
      ? readTextOr(file, '# The latest runs of `pnpm bench`\n')
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
