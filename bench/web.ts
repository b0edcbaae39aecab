import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { firstLoadJs } from '../apps/web/scripts/size.ts';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { CHROMIUM_LAUNCH } from '../test-support/chromium.ts';
import { seededProject } from './data.ts';
import { type Child, createDatabase, ROOT, startChild } from './processes.ts';

// `node --import tsx bench/web.ts [--projects 100000] [--runs 5] [--write]`
//
// The web console's search, as a person sees it: Chromium (playwright-core, Debian's browser)
// types a query into the search page of the real server over a PostgreSQL database seeded with
// --projects projects (through the API, so that everything the search needs is written as in
// use), and the page itself records the time from the last keystroke (its input event) to the first
// result of that query being in the DOM. That includes the console's 80 ms debounce, the
// request, the search, rendering: the whole wait. Each measurement is on a freshly loaded page
// (no answer cached in the browser). With --write the figures replace the "Web console"
// section of bench/LAST-RUN.md.

/**
 * One project's spellings (通义, tyqw, tongyi, qwen), and a few broader queries (many matches: more to rank).
 */
export const QUERIES = ['通义', 'tyqw', 'tongyi', 'qwen', '模型', 'zhineng', 'open model', 'llm'];

const SAMPLE = JSON.parse(readFileSync(join(ROOT, 'fixtures/projects.sample.json'), 'utf8')) as object[];

async function seedThroughApi(url: string, total: number, key: string) {
  const started = performance.now();
  const batches: object[][] = [SAMPLE];
  for (let i = 0; i < total; i += 100)
    batches.push(Array.from({ length: Math.min(100, total - i) }, (_, j) => seededProject(i + j)));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const res = await fetch(`${url}/api/webhook/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ projects: batch }),
      });
      if (!res.ok) throw new Error(`seeding: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return (performance.now() - started) / 1000;
}

export interface WebResult {
  query: string;
  /** ms from the last keystroke to the first result in the DOM, one per run */
  times: number[];
  /** ms of its API request (request sent to response received), one per run */
  apiTimes: number[];
  /** ms from the last keystroke until the results request started (the debounce, mostly) */
  sentTimes: number[];
  firstResult: string;
}

export async function measureSearchPage(baseUrl: string, runs: number): Promise<WebResult[]> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    // In the page: the time of the last keystroke (its input event: when the character is in the box,
    // for typed letters and for CJK committed by an input method alike), and when the list for a query
    // first has an item.
    await page.addInitScript(() => {
      const w = window as unknown as { __lastKey: number; __shown: Record<string, number> };
      w.__shown = {};
      // (No named function here: tsx would wrap it in a helper that does not exist in the page.)
      document.addEventListener(
        'input',
        () => {
          w.__lastKey = performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        const list = document.querySelector('ol.result-list[data-query]');
        const q = list?.getAttribute('data-query');
        if (q && list?.firstElementChild && w.__shown[q] === undefined) w.__shown[q] = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const results: WebResult[] = [];
    for (const query of QUERIES) {
      const times: number[] = [];
      const apiTimes: number[] = [];
      const sentTimes: number[] = [];
      let firstResult = '';
      for (let run = 0; run < runs + 1; run++) {
        await page.goto(`${baseUrl}/`);
        const box = page.getByRole('searchbox');
        await box.waitFor();
        await box.pressSequentially(query, { delay: 40 });
        await page.waitForFunction(
          (q) => (window as unknown as { __shown: Record<string, number> }).__shown[q] !== undefined,
          query,
          { timeout: 30_000 },
        );
        const [ms, apiMs, sentMs] = await page.evaluate((q) => {
          const w = window as unknown as { __lastKey: number; __shown: Record<string, number> };
          // This query's request as the browser timed it (request sent to last byte received).
          const request = performance
            .getEntriesByType('resource')
            .filter((e) => {
              const url = new URL(e.name);
              // the results request (the facet counts come in a request of their own)
              return (
                url.pathname === '/api/projects' &&
                url.searchParams.get('q') === q &&
                !url.searchParams.has('facets')
              );
            })
            .at(-1) as PerformanceResourceTiming | undefined;
          return [
            w.__shown[q]! - w.__lastKey,
            request ? request.responseEnd - request.requestStart : Number.NaN,
            request ? request.startTime - w.__lastKey : Number.NaN,
          ];
        }, query);
        // The first run warms the server's caches and JIT: not counted.
        if (run > 0) {
          times.push(ms!);
          apiTimes.push(apiMs!);
          sentTimes.push(sentMs!);
        }
        firstResult = (await page.locator('ol.result-list > li h2').first().textContent()) ?? '';
      }
      results.push({ query, times, apiTimes, sentTimes, firstResult });
      console.log(
        `  ${query.padEnd(12)} median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms ` +
          `(request sent after ${median(sentTimes).toFixed(0)} ms, took ${median(apiTimes).toFixed(0)} ms) — first: ${firstResult}`,
      );
    }
    return results;
  } finally {
    await browser.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function gzipNote(): string {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) return '';
  const { files, gzip: bytes } = firstLoadJs();
  return (
    `\nFirst load of the search page: ${files.length} JavaScript files, ${(bytes / 1024).toFixed(1)} KB gzipped ` +
    `(level 9; target ≤ 150 KB). The project, queue and changes pages are separate chunks loaded when visited.\n`
  );
}

export function renderSection(
  projects: number,
  runs: number,
  seedSeconds: number,
  results: WebResult[],
): string {
  const all = results.flatMap((r) => r.times);
  const lines = [
    '## Web console: from the last keystroke to a visible result',
    '',
    `\`node --import tsx bench/web.ts --projects ${projects} --runs ${runs} --write\`: Debian's Chromium ` +
      `(headless, playwright-core) types each query into the search page of the real server (PostgreSQL, ` +
      `${projects.toLocaleString('en-US')} generated projects plus the 40 sample ones, seeded through the API ` +
      `in ${seedSeconds.toFixed(0)} s); the page records the time from the last keystroke (its input event) to the first result of ` +
      `that query in the DOM (the 80 ms debounce included). ${runs} runs per query on freshly loaded pages, ` +
      `after one warm-up run; ${cpus().length} cores shared with the server and the database. Target: ≤ 300 ms.`,
    '',
    '| query | median ms | max ms | request sent after, median ms | request took, median ms | first result |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| \`${r.query}\` | ${median(r.times).toFixed(0)} | ${Math.max(...r.times).toFixed(0)} | ` +
        `${median(r.sentTimes).toFixed(0)} | ${median(r.apiTimes).toFixed(0)} | ${r.firstResult} |`,
    ),
    `| **all** | **${median(all).toFixed(0)}** | **${Math.max(...all).toFixed(0)}** | ` +
      `${median(results.flatMap((r) => r.sentTimes)).toFixed(0)} | ` +
      `${median(results.flatMap((r) => r.apiTimes)).toFixed(0)} | |`,
    '',
  ];
  return lines.join('\n') + gzipNote();
}

const START = '<!-- web console: bench/web.ts -->';
const END = '<!-- /web console -->';

/** Puts `section` into bench/LAST-RUN.md between its markers (replacing an earlier one). */
export function writeSection(section: string) {
  const file = join(ROOT, 'bench/LAST-RUN.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `${START}\n${section}\n${END}`;
  const at = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    at >= 0 && end > at
      ? text.slice(0, at) + block + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

/** The section as it stands in bench/LAST-RUN.md, for bench/run.ts to keep when it rewrites the file. */
export function currentSection(): string | undefined {
  const file = join(ROOT, 'bench/LAST-RUN.md');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(START);
  const end = text.indexOf(END);
  return at >= 0 && end > at ? text.slice(at, end + END.length) : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: flags } = parseArgs({
    args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
    options: {
      projects: { type: 'string', default: process.env.BENCH_WEB_PROJECTS ?? '100000' },
      runs: { type: 'string', default: '5' },
      'database-url': {
        type: 'string',
        default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      },
      write: { type: 'boolean', default: false },
    },
  });
  const PROJECTS = Number(flags.projects);
  const RUNS = Number(flags.runs);
  const KEY = `bench-web-${Date.now()}`;
  const database = await createDatabase(flags['database-url'], 'web');
  let server: Child | undefined;
  try {
    const handle = await connect(database.url, { poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    server = await startChild('server', join(ROOT, 'apps/server/src/main.ts'), {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: KEY,
      LOG_LEVEL: 'warn',
    });
    console.log(`seeding ${PROJECTS.toLocaleString('en-US')} projects through ${server.url} …`);
    const seedSeconds = await seedThroughApi(server.url, PROJECTS, KEY);
    console.log(`seeded in ${seedSeconds.toFixed(1)} s; measuring`);
    const results = await measureSearchPage(server.url, RUNS);
    const section = renderSection(PROJECTS, RUNS, seedSeconds, results);
    console.log(`\n${section}`);
    if (flags.write) {
      writeSection(section);
      console.log('wrote bench/LAST-RUN.md');
    }
  } finally {
    await server?.stop();
    await database.drop();
  }
}
