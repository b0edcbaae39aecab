import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from './measure.ts';
import {
  type Child,
  createDatabase,
  type Database,
  type Memory,
  memoryOf,
  ROOT,
  startChild,
} from './processes.ts';
import type { Measurement } from './scenarios.ts';
import { writeProjects } from './seed.ts';
import { upsertScenario } from './upsert-scenario.ts';

// The read model (docs/search.md#how-it-is-served-a-read-model-in-every-process: every server process
// holds what reads need in memory and follows the change feed): what it costs and how fresh it is.
// - per size: its build time at start (from /metrics, and from the spawn to /healthz 200),
//   the index's bytes per project (/metrics), the process's resident memory (/proc);
// - freshness across processes: a write through one process, polled for in another's search;
// - upsert throughput with the model against the server of the commit before it, side by side.

export interface ModelFigures {
  /** From /metrics: the build of the model at start, its projects and the bytes of its index. */
  buildSeconds?: number;
  projects?: number;
  indexBytes?: number;
  /** From the spawn of the process to its first /healthz answer, and to its first 200. */
  listeningSeconds: number;
  readySeconds: number;
  /** Resident memory once ready, and after every scenario (VmRSS, VmHWM). */
  ready?: Memory;
  end?: Memory;
}

export interface Freshness {
  samples: number;
  /** From sending the write to the other process's search returning the project, ms. */
  p50: number;
  p99: number;
  max: number;
  /** The write alone (send → its answer), ms. */
  writeP50: number;
  writeP99: number;
}

/** A Prometheus text exposition as name (with its labels, if any) → value. */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** What a ready server's /metrics (the read_model_* gauges) and /proc tell about its read model. */
export async function modelFigures(server: Child): Promise<ModelFigures> {
  const res = await fetch(`${server.url}/metrics`);
  const metrics = parseMetrics(await res.text());
  const buildSeconds = metrics.get('read_model_build_seconds');
  const projects = metrics.get('read_model_projects');
  const indexBytes = metrics.get('read_model_index_bytes');
  const ready = memoryOf(server.pid);
  return {
    listeningSeconds: server.listeningSeconds,
    readySeconds: server.readySeconds,
    ...(buildSeconds !== undefined && { buildSeconds }),
    ...(projects !== undefined && { projects }),
    ...(indexBytes !== undefined && { indexBytes }),
    ...(ready && { ready }),
  };
}

/** Lowercase letters only, so that the search treats it as one word of its own. */
function uniqueWord(): string {
  return Array.from(randomBytes(12), (b) => String.fromCharCode(97 + (b % 26))).join('');
}

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/**
 * Write-to-searchable across processes: `samples` times, one new project with a unique word in
 * its name through `writer`'s endpoint 1, and `reader`'s GET /api/projects?q=<word> polled
 * (back to back, from the moment the write is sent) until it returns that project. The
 * latency runs from sending the write, so it includes the write's own time.
 */
export async function measureFreshness(
  writer: Child,
  reader: Child,
  apiKey: string,
  samples: number,
): Promise<Freshness> {
  const latencies: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < samples; i++) {
    const word = uniqueWord();
    const name = `Fresh ${word}`;
    const sent = performance.now();
    const write = fetch(`${writer.url}/api/webhook/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        projects: [
          {
            name,
            description: `A project written to time how soon another process finds ${word}.`,
            tags: [{ name: 'Freshness' }],
            links: [{ type: 'CODEHOST', url: `https://github.com/bench-fresh/${word}` }],
          },
        ],
      }),
    }).then(async (r) => {
      const text = await r.text();
      if (!r.ok) throw new Error(`freshness write: ${r.status} ${text.slice(0, 300)}`);
      writes.push(performance.now() - sent);
    });
    const deadline = sent + 10_000;
    for (;;) {
      const r = await fetch(`${reader.url}/api/projects?q=${word}&limit=5`);
      const body = (await r.json()) as { projects?: { name: string }[] };
      if (r.ok && body.projects?.some((p) => p.name === name)) break;
      if (performance.now() > deadline) throw new Error(`"${word}" was not found after 10 s`);
    }
    latencies.push(performance.now() - sent);
    await write;
  }
  latencies.sort((a, b) => a - b);
  writes.sort((a, b) => a - b);
  return {
    samples,
    p50: at(latencies, 0.5),
    p99: at(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? 0,
    writeP50: at(writes, 0.5),
    writeP99: at(writes, 0.99),
  };
}

/**
 * A checkout of `commit` at `dir` with its dependencies installed (a git worktree of this
 * repository, made the first time).
 */
export function ensureCheckout(commit: string, dir: string): void {
  if (existsSync(join(dir, 'apps/server/src/main.ts')) && existsSync(join(dir, 'node_modules'))) {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const wanted = execFileSync('git', ['rev-parse', commit], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (head !== wanted)
      throw new Error(`${dir} holds ${head.slice(0, 7)}, not ${commit}; remove it or name another`);
    return;
  }
  console.log(`making a checkout of ${commit} at ${dir} …`);
  if (!existsSync(dir))
    execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: ROOT, stdio: 'ignore' });
  execFileSync('pnpm', ['install', '--frozen-lockfile'], { cwd: dir, stdio: 'ignore' });
}

export interface UpsertComparison {
  commit: string;
  projects: number;
  before: Measurement[];
  after: Measurement[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
export const itemsOf = (ms: Measurement[]) => mean(ms.map((m) => m.itemsPerSec ?? 0));
export const cpuOf = (ms: Measurement[]) => mean(ms.map((m) => m.cpuMsPerRequest ?? Number.NaN));

/**
 * Upsert throughput with the read model against the server of `commit` (the one before it):
 * each on a fresh database holding `projects` projects written through its own endpoint 1, the
 * upsert scenario run against them in turn, `rounds` times each, alternately, so that other
 * work on the machine weighs on both alike.
 */
export async function compareUpserts(options: {
  adminUrl: string;
  apiKey: string;
  commit: string;
  beforeRoot: string;
  projects: number;
  rounds: number;
  duration: number;
  warmup: number;
  upsertConnections: number;
  dbPoolSize: number;
  track(x: Child | Database): void;
  untrack(x: Child | Database): void;
}): Promise<UpsertComparison> {
  ensureCheckout(options.commit, options.beforeRoot);
  const sides = [];
  for (const [label, root] of [
    ['before', options.beforeRoot],
    ['after', ROOT],
  ] as const) {
    const database = await createDatabase(options.adminUrl, `upsert_${label}`);
    options.track(database);
    const server = await startChild(
      `server-${label}`,
      join(root, 'apps/server/src/main.ts'),
      {
        DATABASE_URL: database.url,
        WEBHOOK_API_KEY: options.apiKey,
        LOG_LEVEL: 'warn',
        DB_POOL_SIZE: String(options.dbPoolSize),
      },
      { root },
    );
    options.track(server);
    const written = await writeProjects(
      server.url,
      options.apiKey,
      options.projects,
      options.upsertConnections,
    );
    const scenario = upsertScenario(
      { apiKey: options.apiKey, runTag: `${label}${randomBytes(2).toString('hex')}`, seed: written },
      options,
    );
    sides.push({ database, server, scenario, runs: [] as Measurement[] });
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const side of sides) {
      const m = await measure(side.scenario, side.server, options);
      console.log(
        `  upsert, ${side.server.name}, round ${round + 1}: ${Math.round(m.itemsPerSec ?? 0)} projects/s`,
      );
      side.runs.push(m);
    }
  }
  for (const side of sides) {
    await side.server.stop();
    options.untrack(side.server);
    await side.database.drop();
    options.untrack(side.database);
  }
  return {
    commit: options.commit,
    projects: options.projects,
    before: sides[0]!.runs,
    after: sides[1]!.runs,
  };
}
