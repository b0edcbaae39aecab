import { prng, seededProject } from './data.ts';
import { measure } from './measure.ts';
import type { Measurement, Scenario, ScenarioOptions } from './scenario.ts';

/*
 * Searches while a writer writes: a crawler updates `rate` projects a second in
 * batches of `batch` through endpoint 1 — one batch at a time, each sent when the previous
 * one has answered and its slot has come (a closed loop, as a crawler runs) — while 64
 * connections search. Reported: what the writer got through per second and each batch's
 * latency, the searches' figures (compared with GET by slug measured alone in the same run),
 * and how long /healthz took, asked every 50 ms meanwhile.
 */

export interface WriterFigures {
  /** Projects written per second, batches per second of the measured window. */
  perSecond: number;
  batches: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

export interface HealthFigures {
  probes: number;
  p99: number;
  max: number;
  /** Probes answered other than 200. */
  failed: number;
}

export interface WriterRun {
  key: string;
  label: string;
  search: Measurement;
  writer: WriterFigures;
  healthz: HealthFigures;
}

export interface WriterOptions {
  apiKey: string;
  /** How many seeded projects there are (project i is bench/data.ts's seededProject(i)). */
  projects: number;
  /** Projects per second the writer tries to write, and per batch. */
  rate: number;
  batch: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Updates walk a shuffled order of the seeded projects, each pass with a new revision (a
// change every time); the walk carries over from one scenario to the next.
let walk: { order: number[]; at: number } | undefined;
let revisionBase = 1000;

function nextBatch(options: WriterOptions) {
  if (!walk || walk.order.length !== options.projects) {
    const order = Array.from({ length: options.projects }, (_, i) => i);
    const shuffle = prng(26);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    walk = { order, at: 0 };
  }
  const projects = [];
  for (let k = 0; k < options.batch; k++) {
    const c = walk.at++;
    projects.push(
      seededProject(walk.order[c % options.projects]!, revisionBase + Math.floor(c / options.projects)),
    );
  }
  return JSON.stringify({ projects });
}

/** The writer and the /healthz probe, from now until `stop`; `measureFrom` starts the window anew. */
function startLoad(url: string, options: WriterOptions) {
  let stopped = false;
  let from = performance.now();
  let latencies: number[] = [];
  let written = 0;
  let failed = 0;
  let health: number[] = [];
  let healthFailed = 0;
  const interval = (1000 * options.batch) / options.rate;
  const headers = { 'content-type': 'application/json', 'x-api-key': options.apiKey };
  const writer = (async () => {
    let slot = performance.now();
    while (!stopped) {
      const wait = slot - performance.now();
      if (wait > 0) await sleep(wait);
      // a late batch does not make the next ones come faster
      slot = Math.max(slot + interval, performance.now());
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/webhook/projects`, {
          method: 'POST',
          headers,
          body: nextBatch(options),
        });
        const reply = (await res.json()) as { created?: number; updated?: number; failed?: number };
        latencies.push(performance.now() - started);
        if (res.status === 200) {
          written += (reply.created ?? 0) + (reply.updated ?? 0);
          failed += reply.failed ?? 0;
        } else failed += options.batch;
      } catch {
        failed += options.batch;
      }
    }
  })();
  const probe = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`);
        await res.arrayBuffer();
        health.push(performance.now() - started);
        if (res.status !== 200) healthFailed++;
      } catch {
        healthFailed++;
      }
      await sleep(50);
    }
  })();
  return {
    measureFrom() {
      from = performance.now();
      latencies = [];
      written = 0;
      failed = 0;
      health = [];
      healthFailed = 0;
    },
    async stop(): Promise<{ writer: WriterFigures; healthz: HealthFigures }> {
      const seconds = (performance.now() - from) / 1000;
      const figures = {
        writer: {
          perSecond: written / seconds,
          batches: latencies.length,
          failed,
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          max: Math.max(...latencies),
        },
        healthz: {
          probes: health.length,
          p99: percentile(health, 0.99),
          max: Math.max(...health),
          failed: healthFailed,
        },
      };
      stopped = true;
      await Promise.all([writer, probe]);
      return figures;
    },
  };
}

/** Each of `searches` measured with the writer and the probe running. */
export async function runWithWriter(
  searches: Scenario[],
  server: { url: string; pid: number },
  settings: Pick<ScenarioOptions, 'duration' | 'warmup'>,
  options: WriterOptions,
  log: (line: string) => void,
): Promise<WriterRun[]> {
  const runs: WriterRun[] = [];
  revisionBase += 1000;
  for (const scenario of searches) {
    const load = startLoad(server.url, options);
    let search: Measurement;
    let figures: Awaited<ReturnType<typeof load.stop>>;
    try {
      search = await measure(scenario, server, { ...settings, onMeasure: () => load.measureFrom() });
    } finally {
      figures = await load.stop();
    }
    const run = { key: `writer-${scenario.key}`, label: scenario.label, search, ...figures };
    runs.push(run);
    log(
      `  ${run.key} … ${Math.round(search.reqPerSec)} req/s, p99 ${search.p99.toFixed(1)} ms` +
        `${search.non2xx > 0 ? `, ${search.non2xx} non-2xx` : ''}; written ${run.writer.perSecond.toFixed(1)}/s, ` +
        `write p99 ${run.writer.p99.toFixed(0)} ms; /healthz max ${run.healthz.max.toFixed(0)} ms`,
    );
  }
  return runs;
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

/** The markdown table of a size's writer runs; `slug` is GET by slug's req/s alone in the same run. */
export function writerRows(runs: WriterRun[], slug: number | undefined): string[][] {
  return runs.map((r) => [
    r.label,
    fmt(r.search.reqPerSec),
    fmt(r.search.p99, 1),
    String(r.search.non2xx),
    slug ? `${(r.search.reqPerSec / slug).toFixed(2)}×` : '',
    fmt(r.writer.perSecond, 1),
    fmt(r.writer.p50),
    fmt(r.writer.p99),
    String(r.writer.failed),
    fmt(r.healthz.max),
  ]);
}

export const WRITER_HEADER = [
  'search, while a writer updates',
  'req/s',
  'p99 ms',
  'non-2xx',
  '÷ slug',
  'written/s',
  'write p50 ms',
  'write p99 ms',
  'failed',
  '/healthz max ms',
];
