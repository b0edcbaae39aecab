import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect } from '../packages/db/src/index.ts';
import { EN_COMMON, ZH_COMMON } from './data.ts';
import { type Child, createDatabase, type Database, ROOT, startChild } from './processes.ts';
import { seedProjects } from './seed.ts';

// `pnpm bench --scenarios scaling`: the same reads against WEB_CONCURRENCY 1, 2, 4, … up to the cores
// the server is given, with a load generator of several threads (autocannon's workers) whose own CPU
// is measured. When the machine has the cores, the server and the generator are pinned apart
// (taskset); PostgreSQL runs where the system puts it. A run whose generator used ≥ 85% of what it
// may use was limited by the generator, not the server: its ratio is not reported.

export const GENERATOR_LIMIT = 0.85;
const KINDS = [
  ['slug', 'GET /api/projects/{slug}'],
  ['search', 'GET /api/projects?q=<common word>'],
  ['list', 'GET /api/projects (first page)'],
] as const;

export interface ScalingRow {
  processes: number;
  kind: string;
  label: string;
  reqPerSec: number;
  p99: number;
  non2xx: number;
  /** CPU cores busy, on average over the run: the server's processes, and the generator. */
  serverCores: number;
  generatorCores: number;
  /** The generator's CPU as a share of what it may use (its threads, or its cores if fewer). */
  generatorShare: number;
}

export interface ScalingResult {
  projects: number;
  cores: number;
  serverCpus: string;
  generatorCpus: string | undefined;
  generatorThreads: number;
  connections: number;
  duration: number;
  rows: ScalingRow[];
}

/** User + system CPU seconds of a process (all its threads) so far, from /proc (Linux; USER_HZ 100). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0; // exited meanwhile
  }
}

/** The CPU seconds of a process and every descendant still running. */
function treeCpuSeconds(pid: number): number {
  let total = cpuSeconds(pid);
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) total += treeCpuSeconds(Number(child));
    }
  } catch {
    // exited meanwhile
  }
  return total;
}

/** The CPU list `a-b` of `count` cores from `first`. */
const cpuRange = (first: number, count: number) =>
  count === 1 ? `${first}` : `${first}-${first + count - 1}`;

export async function runScalingBench(options: {
  adminUrl: string;
  apiKey: string;
  projects: number;
  duration: number;
  warmup: number;
  connections: number;
  generatorThreads: number;
  processes: number[] | undefined;
  track(x: Child | Database): void;
  untrack(x: Child | Database): void;
}): Promise<ScalingResult> {
  const cores = availableParallelism();
  const threads = options.generatorThreads;
  // Apart when the machine has a core for the server beside the generator's; else both share them all.
  const apart = cores > threads;
  const serverCount = apart ? cores - threads : cores;
  const serverCpus = cpuRange(0, serverCount);
  const generatorCpus = apart ? cpuRange(serverCount, threads) : undefined;
  const processes = options.processes ?? [1, 2, 4, 8, 16, 32, 64].filter((n) => n <= serverCount || n === 1);

  const database = await createDatabase(options.adminUrl, 'scaling');
  options.track(database);
  const dir = mkdtempSync(join(ROOT, 'node_modules/.bench-scaling-'));
  const result: ScalingResult = {
    projects: options.projects,
    cores,
    serverCpus,
    generatorCpus,
    generatorThreads: threads,
    connections: options.connections,
    duration: options.duration,
    rows: [],
  };
  try {
    const handle = await connect(database.url, { poolSize: 3 });
    let slugs: string[];
    try {
      // the schema, by a server's migrations; then the projects straight into the tables
      const env = { DATABASE_URL: database.url, WEBHOOK_API_KEY: options.apiKey, LOG_LEVEL: 'warn' };
      const migrator = await startChild('scaling-migrate', join(ROOT, 'apps/server/src/main.ts'), env);
      await migrator.stop();
      ({ slugs } = await seedProjects(handle.pool, options.projects));
      await handle.pool.query('vacuum analyze');
    } finally {
      await handle.close();
    }
    const dataFile = join(dir, 'data.json');
    writeFileSync(dataFile, JSON.stringify({ slugs, words: [...ZH_COMMON, ...EN_COMMON] }));
    if (generatorCpus) execFileSync('taskset', ['-a', '-p', '-c', generatorCpus, String(process.pid)]);

    for (const n of processes) {
      console.log(`  WEB_CONCURRENCY=${n} on CPUs ${serverCpus}`);
      const server = await startChild(
        `scaling-${n}`,
        join(ROOT, 'apps/server/src/main.ts'),
        {
          DATABASE_URL: database.url,
          WEBHOOK_API_KEY: options.apiKey,
          LOG_LEVEL: 'warn',
          WEB_CONCURRENCY: String(n),
          RESPONSE_CACHE_MB: '0',
        },
        { readyTimeoutSeconds: 600, ...(apart && { wrapper: ['taskset', '-c', serverCpus] }) },
      );
      options.track(server);
      try {
        for (const [kind, label] of KINDS) {
          process.env.BENCH_SCALING_KIND = kind;
          process.env.BENCH_SCALING_DATA = dataFile;
          const run = (seconds: number) =>
            autocannon({
              url: server.url,
              connections: options.connections,
              duration: seconds,
              workers: threads,
              timeout: 30,
              requests: [{ method: 'GET', setupRequest: join(ROOT, 'bench/scaling-request.cjs') }],
            });
          if (options.warmup > 0) await run(options.warmup);
          const [server0, self0, t0] = [
            treeCpuSeconds(server.pid),
            cpuSeconds(process.pid),
            performance.now(),
          ];
          const r = await run(options.duration);
          const seconds = (performance.now() - t0) / 1000;
          const [server1, self1] = [treeCpuSeconds(server.pid), cpuSeconds(process.pid)];
          const generatorCores = (self1 - self0) / seconds;
          const row: ScalingRow = {
            processes: n,
            kind,
            label,
            reqPerSec: r.requests.average,
            p99: r.latency.p99,
            non2xx: r.non2xx + r.errors,
            serverCores: (server1 - server0) / seconds,
            generatorCores,
            generatorShare: generatorCores / Math.min(threads, cores),
          };
          result.rows.push(row);
          console.log(
            `    ${label}: ${Math.round(row.reqPerSec)} req/s, p99 ${row.p99} ms, server ${row.serverCores.toFixed(2)} cores, generator ${(100 * row.generatorShare).toFixed(0)}%`,
          );
        }
      } finally {
        await server.stop();
        options.untrack(server);
      }
    }
  } finally {
    if (generatorCpus) execFileSync('taskset', ['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)]);
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
    options.untrack(database);
  }
  return result;
}

/** The ratio of a row to the same kind at one process, or why there is none. */
export function scalingRatio(result: ScalingResult, row: ScalingRow): string {
  const one = result.rows.find((r) => r.kind === row.kind && r.processes === 1);
  if (!one) return '-';
  const bound = [one, row].find((r) => r.generatorShare >= GENERATOR_LIMIT);
  if (bound) return `not reported: the generator was the limit (${(100 * bound.generatorShare).toFixed(0)}%)`;
  return `${(row.reqPerSec / one.reqPerSec).toFixed(2)}×`;
}

export function renderScaling(result: ScalingResult): string[] {
  const where = result.generatorCpus
    ? `the server on CPUs ${result.serverCpus}, the generator on ${result.generatorCpus} (taskset)`
    : `the server and the generator sharing all ${result.cores} CPUs (too few to pin apart)`;
  return [
    `## Every core: WEB_CONCURRENCY against one process (bench/scaling.ts)`,
    '',
    `${result.projects.toLocaleString('en-US')} projects on PostgreSQL, ${result.cores} CPUs: ${where}; ` +
      `${result.generatorThreads} generator threads (autocannon workers), ${result.connections} connections, ` +
      `${result.duration} s each, RESPONSE_CACHE_MB=0. A ratio is refused when the generator used ≥ ` +
      `${GENERATOR_LIMIT * 100}% of its share.`,
    '',
    '| processes | request | req/s | p99 ms | non-2xx | server cores | generator | ÷ one process |',
    '| --: | --- | --: | --: | --: | --: | --: | --- |',
    ...result.rows.map(
      (r) =>
        `| ${r.processes} | ${r.label} | ${Math.round(r.reqPerSec).toLocaleString('en-US')} | ${r.p99} | ${r.non2xx} | ` +
        `${r.serverCores.toFixed(2)} | ${(100 * r.generatorShare).toFixed(0)}% | ${scalingRatio(result, r)} |`,
    ),
  ];
}
