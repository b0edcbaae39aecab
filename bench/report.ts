import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { DatabaseHandle } from '../packages/db/src/index.ts';
import { type ChangesResult, renderChanges } from './changes.ts';
import { type HistoryResult, renderHistory } from './history.ts';
import { cpuOf, type Freshness, itemsOf, type ModelFigures, type UpsertComparison } from './model.ts';
import type { Measurement } from './scenarios.ts';
import { WRITER_HEADER, type WriterRun, writerRows } from './writer.ts';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  date: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  load: number;
}

export interface Settings {
  duration: number;
  warmup: number;
  connections: number;
  batchConnections: number;
  upsertConnections: number;
  dbPoolSize: number;
  sizes: number[];
}

export interface SizeResult {
  projects: number;
  tasks: number;
  seedSeconds: number;
  /** Projects written through endpoint 1, or straight into the tables. */
  via: 'api' | 'sql';
  measurements: Measurement[];
  model: ModelFigures;
  freshness?: Freshness;
  /** Searches while a writer updates projects (bench/writer.ts). */
  writer?: WriterRun[];
  /** Warnings and errors the service logged during the run (LOG_LEVEL=warn). */
  serverLog: string;
}

export interface Report {
  machine: Machine;
  settings: Settings;
  sizes: SizeResult[];
  /** The change feed and webhooks (bench/changes.ts). */
  changes?: ChangesResult;
  /** History: revisions on every write (bench/history.ts). */
  history?: HistoryResult;
  /** Upserts with the read model and before it (bench/model.ts). */
  upserts?: UpsertComparison;
}

export async function describeMachine(pool: DatabaseHandle['pool']): Promise<Machine> {
  const { rows } = await pool.query<{ version: string }>('select version()');
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    postgres: rows[0]?.version.replace(/ on .*/, '') ?? 'unknown',
    date: new Date().toISOString(),
    load: loadavg()[0] ?? 0,
  };
}

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtMs = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(1));
const fmtRatio = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '-' : `${n.toFixed(2)}×`;

function statusText(m: Measurement): string {
  const codes = Object.entries(m.status)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}:${count}`);
  if (m.errors > 0) codes.push(`no reply:${m.errors}`);
  return codes.length === 0 ? '0' : codes.join(' ');
}

const baselineOf = (size: SizeResult) => size.measurements.find((m) => m.target === 'baseline');

const slugOf = (size: SizeResult) => size.measurements.find((m) => m.key === 'slug');

function resultRows(size: SizeResult): string[][] {
  const baseline = baselineOf(size);
  const slug = slugOf(size);
  return size.measurements.map((m) => [
    m.label,
    String(m.connections),
    fmtInt(m.reqPerSec),
    fmtMs(m.p50),
    fmtMs(m.p99),
    statusText(m),
    baseline ? fmtRatio(m.reqPerSec / baseline.reqPerSec) : '-',
    slug && m.target === 'server' ? fmtRatio(m.reqPerSec / slug.reqPerSec) : '',
    m.itemsPerSec === undefined ? '' : fmtInt(m.itemsPerSec),
    m.cpuMsPerRequest === undefined ? '-' : fmtMs(m.cpuMsPerRequest),
  ]);
}

const RESULT_HEADER = [
  'scenario',
  'conns',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  '÷ baseline',
  '÷ slug',
  'items/s',
  'CPU ms/req',
];

interface Scaling {
  key: string;
  label: string;
  /** Each figure's factor for the worse: req/s small÷large, latencies large÷small. */
  reqPerSec: number;
  p50: number;
  p99: number;
  worst: number;
  small: Measurement;
  large: Measurement;
}

/** The size the targets are judged at: 100,000 projects, else the largest measured. */
const TARGET_SIZE = 100_000;
function targetSize(report: Report): SizeResult | undefined {
  return report.sizes.find((s) => s.projects === TARGET_SIZE) ?? report.sizes[report.sizes.length - 1];
}

/** Each figure from the smallest size to the target size, for the scenarios measured at both. */
function scaling(report: Report, large = targetSize(report)): Scaling[] {
  const small = report.sizes[0];
  if (!small || !large || small === large) return [];
  return small.measurements.flatMap((s) => {
    const l = large.measurements.find((m) => m.key === s.key);
    if (!l) return [];
    const reqPerSec = s.reqPerSec / l.reqPerSec;
    const p50 = l.p50 / s.p50;
    const p99 = l.p99 / s.p99;
    return [
      {
        key: s.key,
        label: s.label,
        reqPerSec,
        p50,
        p99,
        worst: Math.max(reqPerSec, p50, p99),
        small: s,
        large: l,
      },
    ];
  });
}

interface Target {
  name: string;
  met: boolean | undefined;
  detail: string;
}

const sizeName = (size: SizeResult) => fmtInt(size.projects);
const GIB = 2 ** 30;

/**
 * The read model's targets, judged at 100,000 projects (the other sizes shown beside), then the
 * earlier targets it does not replace.
 */
function targets(report: Report): Target[] {
  const list: Target[] = [];
  const main = targetSize(report);
  if (!main) return list;
  const measured = (size: SizeResult, key: string) => size.measurements.find((m) => m.key === key);
  const at = `at ${sizeName(main)}`;
  /** A figure at every size, the target size's first. */
  const each = (figure: (size: SizeResult) => string | undefined) =>
    [main, ...report.sizes.filter((s) => s !== main)]
      .map((size) => {
        const f = figure(size);
        return f === undefined ? undefined : `${sizeName(size)}: ${f}`;
      })
      .filter((x) => x !== undefined)
      .join(', ');
  // the read path's targets divide by GET by slug over the warm working set of 5,000 slugs
  // (slug-unkeyed), so that they measure the request path and not PostgreSQL; when that was not
  // measured, by the cold GET by slug, and the target's name says which
  const warm = main.measurements.some((m) => m.key === 'slug-unkeyed');
  const ratioToSlug = (size: SizeResult, key: string) => {
    const m = measured(size, key);
    const slug = warm ? measured(size, 'slug-unkeyed') : slugOf(size);
    return m && slug ? m.reqPerSec / slug.reqPerSec : undefined;
  };
  const bySlug = warm ? 'GET by slug (warm 5,000 slugs)' : 'GET by slug (random slugs)';

  const ratioTargets: [string, string, number][] = [
    ['search-zh', 'search by a common Chinese word (varied)', 0.5],
    ['search-en', 'search by a common English word (varied)', 0.5],
    ['search-two', 'search by two common words', 0.5],
    ['search-prefix', 'search by a two-letter prefix', 0.5],
    ['search-typo', 'search by a word with a typo', 0.5],
    ['search-facets', 'search with all three facets', 0.3],
    ['search-list', 'list page (no q)', 0.8],
    ['search-tags', 'tags list', 0.8],
  ];
  for (const [key, what, min] of ratioTargets) {
    const ratio = ratioToSlug(main, key);
    list.push({
      name: `${what} ≥ ${min} × ${bySlug}`,
      met: ratio === undefined ? undefined : ratio >= min,
      detail: each((size) => {
        const r = ratioToSlug(size, key);
        return r === undefined ? undefined : r.toFixed(2);
      }),
    });
  }

  // related projects against GET by slug over the same 5,000 warm slugs (slug-unkeyed)
  const relatedRatio = (size: SizeResult) => {
    const [r, slug] = [measured(size, 'related'), measured(size, 'slug-unkeyed')];
    return r && slug ? r.reqPerSec / slug.reqPerSec : undefined;
  };
  const related = relatedRatio(main);
  list.push({
    name: 'related projects ≥ 0.5 × GET by slug (same 5,000 slugs)',
    met: related === undefined ? undefined : related >= 0.5,
    detail: each((size) => relatedRatio(size)?.toFixed(2)),
  });

  const failing = main.measurements.filter((m) => m.non2xx + m.errors > 0);
  list.push({
    name: `no non-2xx ${at}`,
    met: main.measurements.length === 0 ? undefined : failing.length === 0,
    detail:
      failing.length === 0
        ? `${main.measurements.length} scenarios`
        : failing.map((m) => `${m.key} ${statusText(m)}`).join(', '),
  });

  const searches = main.measurements.filter((m) => m.key.startsWith('search-') && m.label.includes('q='));
  const at16 = searches.filter((m) => m.connections === 16);
  list.push({
    name: 'p99 of every search ≤ 25 ms at 16 connections',
    met: at16.length === 0 ? undefined : at16.every((m) => m.p99 <= 25),
    detail:
      at16.length === 0
        ? 'run with --connections 16'
        : `worst ${fmtMs(Math.max(...at16.map((m) => m.p99)))} ms`,
  });
  const slow = searches.filter((m) => m.p99 > 50 || m.connections < 64);
  list.push({
    name: 'p99 of every search ≤ 50 ms at 64 connections',
    met: searches.length === 0 ? undefined : slow.length === 0,
    detail: each((size) => {
      const ms = size.measurements.filter((m) => m.key.startsWith('search-') && m.label.includes('q='));
      return ms.length === 0 ? undefined : `worst ${fmtMs(Math.max(...ms.map((m) => m.p99)))} ms`;
    }),
  });

  const slugToBaseline = (size: SizeResult) => {
    const m = slugOf(size);
    const baseline = baselineOf(size);
    return m && baseline ? m.reqPerSec / baseline.reqPerSec : undefined;
  };
  const slugRatio = slugToBaseline(main);
  list.push({
    name: 'GET by slug ≥ 1.0 × the raw baseline',
    met: slugRatio === undefined ? undefined : slugRatio >= 1,
    detail: each((size) => {
      const r = slugToBaseline(size);
      return r === undefined ? undefined : `${r.toFixed(2)}×`;
    }),
  });

  const scaled = scaling(report).filter((s) => s.key !== 'baseline-slug');
  const worse = scaled.filter((s) => s.worst > 1.5);
  const first = report.sizes[0]!;
  list.push({
    name: `every figure within 1.5× from ${sizeName(first)} to ${sizeName(main)} projects`,
    met: scaled.length === 0 ? undefined : worse.length === 0,
    detail:
      scaled.length === 0
        ? 'needs two sizes'
        : worse.length === 0
          ? `worst ${fmtRatio(Math.max(...scaled.map((s) => s.worst)))}`
          : `worse: ${worse.map((s) => `${s.key} ${fmtRatio(s.worst)}`).join(', ')}`,
  });

  for (const [projects, max] of [
    [100_000, 10],
    [1_000_000, 60],
  ] as const) {
    const size = report.sizes.find((s) => s.projects === projects);
    const seconds = size?.model.buildSeconds ?? size?.model.readySeconds;
    list.push({
      name: `model build ≤ ${max} s at ${fmtInt(projects)} projects`,
      met: seconds === undefined ? undefined : seconds <= max,
      detail: each((s) =>
        s.model.buildSeconds === undefined
          ? `ready after ${s.model.readySeconds.toFixed(1)} s`
          : `${s.model.buildSeconds.toFixed(1)} s`,
      ),
    });
  }

  const million = report.sizes.find((s) => s.projects === 1_000_000);
  const peakOf = (s: SizeResult) => Math.max(s.model.ready?.peak ?? 0, s.model.end?.peak ?? 0) || undefined;
  const peak = million && peakOf(million);
  list.push({
    name: 'server resident memory ≤ 2.5 GB at 1,000,000 projects (peak, VmHWM)',
    met: peak === undefined ? undefined : peak <= 2.5 * GIB,
    detail: each((s) => {
      const p = peakOf(s);
      return p === undefined ? undefined : `${(p / GIB).toFixed(2)} GiB`;
    }),
  });

  const upserts = report.upserts;
  const upsertRatio = upserts ? itemsOf(upserts.after) / itemsOf(upserts.before) : undefined;
  list.push({
    name: 'upsert throughput with the model ≥ 90% of before',
    met: upsertRatio === undefined ? undefined : upsertRatio >= 0.9,
    detail: upserts
      ? `${Math.round((upsertRatio ?? 0) * 100)}% (${fmtInt(itemsOf(upserts.after))} vs ${fmtInt(itemsOf(upserts.before))} projects/s)`
      : 'not measured',
  });

  const fresh = report.sizes.filter((s) => s.freshness);
  list.push({
    name: 'write-to-searchable on another process p99 ≤ 100 ms',
    met: fresh.length === 0 ? undefined : fresh.every((s) => s.freshness!.p99 <= 100),
    detail: each((s) => (s.freshness ? `${fmtMs(s.freshness.p99)} ms` : undefined)),
  });

  // Earlier targets that the read model's leave standing.
  const slugP99 = slugOf(main);
  list.push({
    name: 'GET by slug p99 < 20 ms at 64 connections',
    met: slugP99 ? slugP99.p99 < 20 && slugP99.connections === 64 : undefined,
    detail: each((size) => {
      const m = slugOf(size);
      return m ? `${fmtMs(m.p99)} ms` : undefined;
    }),
  });
  // A key's lookup and rate limit cost a read at most 5 %
  const keyedRatio = (size: SizeResult) => {
    const keyed = measured(size, 'slug-keyed');
    const unkeyed = measured(size, 'slug-unkeyed');
    return keyed && unkeyed ? keyed.reqPerSec / unkeyed.reqPerSec : undefined;
  };
  const mainKeyed = keyedRatio(main);
  list.push({
    name: 'GET by slug with a named key ≥ 95% of without',
    met: mainKeyed === undefined ? undefined : mainKeyed >= 0.95,
    detail: each((size) => {
      const r = keyedRatio(size);
      return r === undefined ? undefined : `${(100 * r).toFixed(1)}%`;
    }),
  });
  const upsert = measured(main, 'upsert');
  list.push({
    name: '≥ 3,000 projects/s batch upsert',
    met: upsert ? (upsert.itemsPerSec ?? 0) >= 3000 : undefined,
    detail: each((size) => {
      const m = measured(size, 'upsert');
      return m ? `${fmtInt(m.itemsPerSec ?? 0)}/s` : undefined;
    }),
  });
  return list;
}

const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'NOT met');

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A Markdown table; columns after the first are right-aligned unless `left`. */
function mdTable(header: string[], rows: string[][], left = false): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = header.map((_, i) => (i === 0 || left ? ' --- ' : ' ---: ')).join('|');
  return [line(header), `|${rule}|`, ...rows.map(line)].join('\n');
}

const sizeTitle = (size: SizeResult) =>
  `${fmtInt(size.projects)} projects, ${fmtInt(size.tasks)} tasks (` +
  `${size.via === 'api' ? 'projects written through endpoint 1' : 'seeded with SQL'}, ${size.seedSeconds.toFixed(1)} s)`;

/** Sizes beyond the target size: their worst factor from the smallest size is shown for reference. */
const beyond = (report: Report) => {
  const main = targetSize(report);
  return main ? report.sizes.filter((s) => s.projects > main.projects) : [];
};

function scalingHeader(report: Report): string[] {
  return [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'worst',
    ...beyond(report).map((s) => `worst at ${fmtInt(s.projects)}`),
    'CPU ms/req',
  ];
}

function scalingTitle(report: Report): string {
  return `${fmtInt(report.sizes[0]?.projects ?? 0)} → ${fmtInt(targetSize(report)?.projects ?? 0)} projects`;
}

function scalingRows(report: Report): string[][] {
  const further = beyond(report).map((size) => scaling(report, size));
  return scaling(report).map((s) => [
    s.label,
    `${fmtInt(s.small.reqPerSec)} → ${fmtInt(s.large.reqPerSec)} (${fmtRatio(s.reqPerSec)})`,
    `${fmtMs(s.small.p50)} → ${fmtMs(s.large.p50)} (${fmtRatio(s.p50)})`,
    `${fmtMs(s.small.p99)} → ${fmtMs(s.large.p99)} (${fmtRatio(s.p99)})`,
    fmtRatio(s.worst),
    ...further.map((f) => fmtRatio(f.find((x) => x.key === s.key)?.worst)),
    s.small.cpuMsPerRequest === undefined || s.large.cpuMsPerRequest === undefined
      ? '-'
      : `${fmtMs(s.small.cpuMsPerRequest)} → ${fmtMs(s.large.cpuMsPerRequest)}`,
  ]);
}

function notes(report: Report): string[] {
  const out: string[] = [];
  for (const size of report.sizes) {
    for (const m of size.measurements) {
      for (const note of m.notes) out.push(`${fmtInt(size.projects)} projects, ${m.key}: ${note}`);
    }
    if (size.serverLog.trim()) {
      const lines = size.serverLog.trim().split('\n');
      out.push(
        `${fmtInt(size.projects)} projects: the service logged ${lines.length} warning/error lines, the last: ${lines[lines.length - 1]}`,
      );
    }
  }
  return out;
}

const fmtBytes = (n: number | undefined) =>
  n === undefined ? '-' : n >= GIB ? `${(n / GIB).toFixed(2)} GiB` : `${Math.round(n / 2 ** 20)} MiB`;

const MODEL_HEADER = [
  'projects',
  'written',
  'ready after s',
  'model build s',
  'index bytes/project',
  'RSS ready',
  'RSS after the run',
  'peak RSS',
  'write → searchable elsewhere p50 / p99 / max ms',
  'the write alone p50 / p99 ms',
];

function modelRows(report: Report): string[][] {
  return report.sizes.map((size) => {
    const m = size.model;
    const f = size.freshness;
    return [
      fmtInt(size.projects),
      size.via === 'api' ? 'endpoint 1' : 'SQL',
      m.readySeconds.toFixed(1),
      m.buildSeconds === undefined ? '-' : m.buildSeconds.toFixed(1),
      m.indexBytes === undefined || !m.projects ? '-' : fmtInt(m.indexBytes / m.projects),
      fmtBytes(m.ready?.rss),
      fmtBytes(m.end?.rss),
      fmtBytes(Math.max(m.ready?.peak ?? 0, m.end?.peak ?? 0) || undefined),
      f ? `${fmtMs(f.p50)} / ${fmtMs(f.p99)} / ${fmtMs(f.max)}` : '-',
      f ? `${fmtMs(f.writeP50)} / ${fmtMs(f.writeP99)}` : '-',
    ];
  });
}

const UPSERT_HEADER = ['server', 'projects/s per round', 'mean projects/s', 'CPU ms per batch', '÷ before'];

function upsertRows(u: UpsertComparison): string[][] {
  const base = itemsOf(u.before);
  return [
    [`before the model (${u.commit})`, u.before],
    ['with the model (this checkout)', u.after],
  ].map(([name, runs]) => {
    const ms = runs as Measurement[];
    return [
      name as string,
      ms.map((m) => fmtInt(m.itemsPerSec ?? 0)).join(', '),
      fmtInt(itemsOf(ms)),
      fmtMs(cpuOf(ms)),
      `${Math.round((itemsOf(ms) / base) * 100)}%`,
    ];
  });
}

/** One size's results. */
function renderSize(size: SizeResult): string {
  return `\n${sizeTitle(size)}\n${textTable(RESULT_HEADER, resultRows(size))}\n`;
}

/** The closing summary printed at the end of a run. */
export function renderSummary(report: Report): string {
  const parts: string[] = [];
  for (const size of report.sizes) parts.push(renderSize(size));
  const rows = scalingRows(report);
  if (rows.length > 0)
    parts.push(
      `\n${scalingTitle(report)} (factor for the worse)\n${textTable(scalingHeader(report), rows)}\n`,
    );
  if (report.sizes.length > 0) parts.push(`\nRead model\n${textTable(MODEL_HEADER, modelRows(report))}\n`);
  if (report.upserts)
    parts.push(
      `\nUpserts, ${fmtInt(report.upserts.projects)} projects\n${textTable(UPSERT_HEADER, upsertRows(report.upserts))}\n`,
    );
  parts.push(
    `\nTargets\n${textTable(
      ['target', 'result', 'figures'],
      targets(report).map((t) => [t.name, verdict(t.met), t.detail]),
    )}\n`,
  );
  const n = notes(report);
  if (n.length > 0) parts.push(`\nNotes\n${n.map((x) => `- ${x}`).join('\n')}\n`);
  return parts.join('');
}

const HOW_TO_RUN = `## How to run

\`\`\`sh
pnpm bench                 # print the figures
pnpm bench -- --write      # … and write them to bench/RESULTS.md
pnpm bench -- --sizes 1000 --duration 3 --warmup 1   # a short check that everything works
\`\`\`

Needs a PostgreSQL server whose role may create databases: \`BENCH_DATABASE_URL\`
(default \`postgres://postgres@127.0.0.1:5432/test\`) names it. For each size the run creates a
fresh database and writes the projects into it: up to \`--api-max\` through endpoint 1 of a server
started for that (100 per request, as a crawler would), beyond it straight into the tables
(\`bench/seed.ts\`); then the tasks, with SQL. It then starts the real server as \`pnpm start\`
runs it (\`node --import tsx apps/server/src/main.ts\`, \`LOG_LEVEL=warn\`), which builds its read
model from the database before \`/healthz\` answers 200, and the baseline
(\`bench/baseline-server.ts\`), runs every scenario against them with autocannon (a warm-up, then
the measurement), starts a second server process for the freshness measurement, stops them all
and drops the database. The upsert comparison (\`bench/model.ts\`) then runs the server of the
commit before the read model from a git worktree under the system's temporary directory (made,
and its dependencies installed, on the first run) beside this checkout's.
Run it on an otherwise idle machine: the load generator, the servers and PostgreSQL share it.

| flag | env | default | meaning |
| --- | --- | --- | --- |
| \`--duration\` | \`BENCH_DURATION\` | 10 | seconds measured per scenario |
| \`--warmup\` | \`BENCH_WARMUP\` | 5 | seconds of unmeasured load before each measurement (the server takes several seconds of load to reach its steady speed) |
| \`--sizes\` | \`BENCH_SIZES\` | 1000,100000,1000000 | projects, one database per size; the targets are judged at 100,000 and its figures compared with the first size's |
| \`--api-max\` | \`BENCH_API_MAX\` | 100000 | sizes up to this are written through endpoint 1, larger ones with SQL |
| \`--freshness-samples\` | \`BENCH_FRESHNESS_SAMPLES\` | 300 | writes timed from one process to another's search, per size |
| \`--before\` | \`BENCH_BEFORE\` | 898dbff | the commit whose server the upserts are compared with (\`none\` skips it) |
| \`--compare-projects\` | \`BENCH_COMPARE_PROJECTS\` | 10000 | projects written into each database of the upsert comparison |
| \`--compare-rounds\` | \`BENCH_COMPARE_ROUNDS\` | 2 | measurements of each server in that comparison, alternately |
| \`--cpu-prof\` | \`BENCH_CPU_PROF\` | | a directory: the measured server runs with \`node --cpu-prof\` and writes its profile there when it stops |
| \`--tasks\` | \`BENCH_TASKS\` | 20000 | seeded discovery tasks, the same at every size |
| \`--connections\` | \`BENCH_CONNECTIONS\` | 64 | connections for single-item reads and claims |
| \`--batch-connections\` | \`BENCH_BATCH_CONNECTIONS\` | 16 | connections for the duplicate checks |
| \`--upsert-connections\` | \`BENCH_UPSERT_CONNECTIONS\` | 4 | connections for the upsert batches (on 2 cores, more batches at once only contend for the same cores) |
| \`--db-pool-size\` | \`BENCH_DB_POOL_SIZE\` | 10 | \`DB_POOL_SIZE\` of the server and the baseline |
| \`--claims-per-second\` | \`BENCH_CLAIMS_PER_SECOND\` | 5000 | PENDING tasks added for the claim scenario per second of its run |
| \`--scenarios\` | \`BENCH_SCENARIOS\` | all | comma-separated keys, e.g. \`baseline-slug,slug,upsert\`; also \`freshness\`, \`upsert-before\`, \`changes\`, \`queue\`, \`history\`, \`writer\` (every search with a concurrent writer; one: \`writer-search-zh\`), \`slug-unkeyed,slug-keyed\` (what a named key costs a read), \`processes\` (WEB_CONCURRENCY=2 against one process), \`restart\` (ready time and memory built from the database, then from the read model's snapshot: bench/restart.ts) |
| \`--writer-rate\` | \`BENCH_WRITER_RATE\` | 50 | projects per second the writer of the \`writer\` scenarios tries to update (a batch at a time, each after the last answered) |
| \`--writer-batch\` | \`BENCH_WRITER_BATCH\` | 5 | projects per batch of that writer |
| \`--response-cache-mb\` | \`BENCH_RESPONSE_CACHE_MB\` | (the server's) | \`RESPONSE_CACHE_MB\` of the measured server: 0 measures every answer afresh |
| \`--write\` | | | write this file |

The seeder also runs alone, on an existing empty database (it migrates it first):
\`node --import tsx bench/seed.ts --projects 100000 --tasks 20000 --database-url postgres://…\`.

### The data

Project *i* is a pure function of *i* (\`bench/data.ts\`): a third have Chinese names only (pinyin
slugs), a third Chinese names with English names, a third English names only, each name made of
two of the project's four common words (twenty per language, aligned: 模型 ↔ model), its
descriptions (Chinese and English) of the same two and two more, so that one common word is in
about a fifth of the projects (as "model" is in a directory of AI projects); Markdown content;
3 links (CODEHOST, WEBSITE, then MODELHUB or PAPER) and 3 tags from a shared pool of 300
(Chinese names, most with English names). Slugs come from core's \`slugify\`. Tasks are half
PENDING, then IN_PROGRESS, COMPLETED (each with the CODEHOST url and id of the project it made)
and FAILED. Projects go through endpoint 1 (4 connections) or, beyond \`--api-max\`, set-based SQL
(\`json_to_recordset\`, 2,000 projects per statement, two connections, only the columns a
project's own fields fill); tasks always with SQL; then \`VACUUM (ANALYZE)\`.

### The scenarios (key: what it sends)

- \`baseline-slug\`: GET /api/projects/{slug} against the baseline, a node:http + pg.Pool server
  running the service's own query (\`projectDetailBySlugQuery\`, compiled once) as a named prepared
  statement and writing the same envelope. It is the raw limit every req/s is divided by (÷ baseline).
- \`slug\`: GET /api/projects/{slug}, a random seeded slug per request.
- \`task\`: GET /api/discovery/tasks/{id}, a random seeded task per request.
- \`list-0\`, \`list-0-pending\`, \`list-deep\`, \`list-deep-pending\`: GET /api/discovery/tasks
  with limit=100 at offset 0 and at 90% of the matching tasks, without and with status=PENDING.
- \`dup-tasks\`: POST /api/discovery/check-duplicates with 100 urls: a third seeded task urls,
  a third links of seeded projects, a third new. items/s = urls checked per second.
- \`dup-projects\`: POST /api/webhook/check-duplicates with 100 items: half all four keys of a
  seeded project, a fifth website url and slug only, the rest new. items/s = items checked per second.
- \`upsert\`: POST /api/webhook/projects with 100 projects, alternately new and an update of a
  seeded project (found by its CODEHOST url; new descriptions, one tag changed). Batches in
  flight never share a project. items/s = projects created or updated per second, read from the
  response bodies; failed items are reported in the notes.
- \`claim\`: PATCH /api/discovery/tasks/{id} {"status":"IN_PROGRESS"}, each request on another
  PENDING task added for this scenario, so every answer should be 200; a 409 means a task was
  claimed twice.
- \`search-list\`: GET /api/projects, the first page (20 projects, newest first) without q.
- \`search-zh\`, \`search-en\`, \`search-two\`, \`search-prefix\`, \`search-typo\`: GET
  /api/projects?q=… with the word varying per request: a common Chinese word (each matches about
  a quarter of the projects with the tags that hold it), a common English word, an English and a
  Chinese one (both required), the first two letters of an English one, an English one of 5+
  letters with two letters swapped (one typo); ranked by relevance.
- \`search-facets\`: GET /api/projects?q=<a common Chinese word>&facets=tags,status,linkTypes.
- \`search-tags\`: GET /api/tags (the 50 tags with the most projects).
- \`related\`: GET /api/projects/{slug}/related over the same 5,000 slugs as \`slug-unkeyed\` (run
  with it; RESPONSE_CACHE_MB=0 computes every answer afresh).
- \`freshness\` (not an autocannon run): see "Read model" above.
- \`upsert-before\`: the upsert scenario against the server before the read model and this one.

req/s counts responses of any status; p50 and p99 are the latencies of all responses, from
autocannon's per-response times (not its whole-millisecond histogram). non-2xx lists other
statuses and requests that got no reply. CPU ms/req is the CPU time (user + system, from
/proc) the server or baseline process spent per response during the measurement: it shows
where the time goes even when other work on the machine depresses req/s. Scenarios run in the
order above; the upserts and claims run last because they change the data.

With a fixed number of connections each waiting for its reply (a closed loop), mean latency
is connections ÷ req/s: p99 < 20 ms at 64 connections needs well over 3,200 req/s.
`;

/** bench/RESULTS.md. */
export function renderMarkdown(report: Report): string {
  const { machine, settings } = report;
  const out: string[] = ['# Benchmark results', ''];
  out.push(`Written by \`pnpm bench -- --write\` on ${machine.date}.`);
  const caveats = [
    ...(settings.duration < 10 ? [`${settings.duration} s per scenario`] : []),
    ...(machine.load > machine.cores / 2
      ? [`load average ${machine.load.toFixed(1)} on ${machine.cores} cores at the start`]
      : []),
  ];
  if (caveats.length > 0) out.push('', `> Indicative only: ${caveats.join(', ')}.`);
  out.push('', '## Machine', '');
  out.push(
    mdTable(
      ['machine', ''],
      [
        ['CPU', `${machine.cpu} × ${machine.cores}`],
        ['memory', `${machine.memoryGiB} GiB`],
        ['OS', machine.os],
        ['Node', machine.node],
        ['PostgreSQL', machine.postgres],
        ['load average at start', machine.load.toFixed(2)],
      ],
      true,
    ),
  );
  out.push('', '## Settings', '');
  out.push(
    `${settings.duration} s measured after ${settings.warmup} s of warm-up per scenario; ` +
      `${settings.connections} connections for single-item requests, ${settings.batchConnections} for the ` +
      `duplicate checks, ${settings.upsertConnections} for upserts; DB_POOL_SIZE ${settings.dbPoolSize}.`,
  );
  for (const size of report.sizes) {
    out.push('', `## ${sizeTitle(size)}`, '');
    out.push(mdTable(RESULT_HEADER, resultRows(size)));
    if (size.writer) {
      out.push(
        '',
        `While a writer updates projects through endpoint 1 (bench/writer.ts; ÷ slug: GET by slug alone above):`,
        '',
      );
      out.push(mdTable(WRITER_HEADER, writerRows(size.writer, slugOf(size)?.reqPerSec)));
    }
  }
  const rows = scalingRows(report);
  if (rows.length > 0) {
    out.push('', `## ${scalingTitle(report)}`, '');
    out.push(
      'Each figure at both sizes, with its factor for the worse (req/s: small ÷ large; latency: large ÷ small)' +
        `${beyond(report).length > 0 ? ', and the worst factor from the smallest size to each larger one' : ''}; ` +
        'CPU ms/req for reference.',
      '',
    );
    out.push(mdTable(scalingHeader(report), rows));
  }
  if (report.sizes.length > 0) {
    out.push('', '## Read model', '');
    out.push(
      'Each size: the server started on the written database builds its model before `/healthz` answers 200 ' +
        '("ready after": from the spawn, migrations included; "model build": from its `/metrics`); the index\'s ' +
        'bytes per project from `/metrics`; resident memory from `/proc/<pid>/status` (VmRSS once ready and after ' +
        'every scenario, VmHWM for the peak). Freshness: a second server process on the same database takes ' +
        "one new project per write (endpoint 1, a unique word in its name); the measured server's " +
        '`GET /api/projects?q=<word>` is polled back to back from the moment the write is sent until the project ' +
        'is in its answer.',
      '',
    );
    out.push(mdTable(MODEL_HEADER, modelRows(report)));
  }
  if (report.upserts) {
    const u = report.upserts;
    out.push(
      '',
      `Upserts with the model and before it, side by side: the server of ${u.commit} (the commit before the ` +
        `read model, a git worktree of this repository) and this checkout's, each on a fresh database of ` +
        `${fmtInt(u.projects)} projects written through its own endpoint 1, the upsert scenario run against ` +
        `them in turn (${u.before.length} rounds each, alternately).`,
      '',
    );
    out.push(mdTable(UPSERT_HEADER, upsertRows(u)));
  }
  out.push('', '## Targets', '');
  out.push(
    mdTable(
      ['target', 'result', 'figures'],
      targets(report).map((t) => [t.name, verdict(t.met), t.detail]),
      true,
    ),
  );
  const n = notes(report);
  if (n.length > 0) out.push('', '## Notes', '', ...n.map((x) => `- ${x.replace(/\n/g, ' ')}`));
  if (report.changes) out.push(...renderChanges(report.changes));
  if (report.history) out.push(...renderHistory(report.history));
  out.push('', HOW_TO_RUN);
  return `${out.join('\n')}`;
}
