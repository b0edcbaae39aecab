import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { DatabaseHandle } from '../packages/db/src/index.ts';
import { type ChangesResult, renderChanges } from './changes.ts';
import type { Measurement } from './scenarios.ts';

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
  measurements: Measurement[];
  /** Warnings and errors the service logged during the run (LOG_LEVEL=warn). */
  serverLog: string;
}

export interface Report {
  machine: Machine;
  settings: Settings;
  sizes: SizeResult[];
  /** The change feed and webhooks (bench/changes.ts). */
  changes?: ChangesResult;
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

function resultRows(size: SizeResult): string[][] {
  const baseline = baselineOf(size);
  return size.measurements.map((m) => [
    m.label,
    String(m.connections),
    fmtInt(m.reqPerSec),
    fmtMs(m.p50),
    fmtMs(m.p99),
    statusText(m),
    baseline ? fmtRatio(m.reqPerSec / baseline.reqPerSec) : '-',
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

/** Each figure from the smallest to the largest size, for the scenarios measured at both. */
function scaling(report: Report): Scaling[] {
  if (report.sizes.length < 2) return [];
  const small = report.sizes[0]!;
  const large = report.sizes[report.sizes.length - 1]!;
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

function targets(report: Report): Target[] {
  const perSize = (key: string) =>
    report.sizes.map((size) => ({ size, m: size.measurements.find((m) => m.key === key) }));
  const slug = perSize('slug');
  const list: Target[] = [];

  const ratios = slug.map(({ size, m }) => {
    const baseline = baselineOf(size);
    return { size, ratio: m && baseline ? m.reqPerSec / baseline.reqPerSec : undefined };
  });
  list.push({
    name: 'GET by slug ≥ 70% of the raw baseline’s req/s',
    met: ratios.every((r) => r.ratio !== undefined) ? ratios.every((r) => r.ratio! >= 0.7) : undefined,
    detail: ratios
      .map(
        (r) =>
          `${fmtInt(r.size.projects)}: ${r.ratio === undefined ? 'not measured' : `${Math.round(r.ratio * 100)}%`}`,
      )
      .join(', '),
  });

  list.push({
    name: 'GET by slug p99 < 20 ms at 64 connections',
    met: slug.every(({ m }) => m) ? slug.every(({ m }) => m!.p99 < 20 && m!.connections === 64) : undefined,
    detail: slug
      .map(({ size, m }) =>
        m ? `${fmtInt(size.projects)}: ${fmtMs(m.p99)} ms at ${m.connections} connections` : 'not measured',
      )
      .join(', '),
  });

  const upsert = perSize('upsert');
  list.push({
    name: '≥ 3,000 projects/s batch upsert',
    met: upsert.every(({ m }) => m) ? upsert.every(({ m }) => (m!.itemsPerSec ?? 0) >= 3000) : undefined,
    detail: upsert
      .map(({ size, m }) =>
        m
          ? `${fmtInt(size.projects)}: ${fmtInt(m.itemsPerSec ?? 0)}/s at ${m.connections} connections`
          : 'not measured',
      )
      .join(', '),
  });

  // Browse and search (issue 8): ratios to GET-by-slug req/s in the same run.
  const searchTargets: [string, string, number][] = [
    ['search-list', 'list page (no q)', 0.5],
    ['search-zh', 'search by a two-character Chinese word (q=模型)', 0.3],
    ['search-en', 'search by an English word (q=engine)', 0.3],
    ['search-initials', 'search by initials (q=kyzs)', 0.3],
    ['search-facets', 'search with all three facets', 0.15],
  ];
  for (const [key, what, min] of searchTargets) {
    const rows = perSize(key).map(({ size, m }) => {
      const by = slug.find((x) => x.size === size)?.m;
      return { size, ratio: m && by ? m.reqPerSec / by.reqPerSec : undefined };
    });
    if (rows.every((r) => r.ratio === undefined)) continue;
    list.push({
      name: `${what} ≥ ${min} × GET by slug`,
      met: rows.every((r) => r.ratio !== undefined) ? rows.every((r) => r.ratio! >= min) : undefined,
      detail: rows
        .map(
          (r) => `${fmtInt(r.size.projects)}: ${r.ratio === undefined ? 'not measured' : r.ratio.toFixed(2)}`,
        )
        .join(', '),
    });
  }

  const scaled = scaling(report).filter((s) => s.key !== 'baseline-slug');
  const worse = scaled.filter((s) => s.worst > 1.5);
  const sizes = report.sizes.map((s) => fmtInt(s.projects));
  list.push({
    name:
      sizes.length < 2
        ? 'no figure worse than 1.5× from the smallest to the largest size'
        : `no figure worse than 1.5× from ${sizes[0]} to ${sizes[sizes.length - 1]} projects`,
    met: scaled.length === 0 ? undefined : worse.length === 0,
    detail:
      scaled.length === 0
        ? 'needs two sizes'
        : worse.length === 0
          ? `worst ${fmtRatio(Math.max(...scaled.map((s) => s.worst)))}`
          : `worse: ${worse.map((s) => `${s.key} ${fmtRatio(s.worst)}`).join(', ')}`,
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
  `${fmtInt(size.projects)} projects, ${fmtInt(size.tasks)} tasks (seeded in ${size.seedSeconds.toFixed(1)} s)`;

const SCALING_HEADER = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'worst', 'CPU ms/req'];

function scalingRows(report: Report): string[][] {
  return scaling(report).map((s) => [
    s.label,
    `${fmtInt(s.small.reqPerSec)} → ${fmtInt(s.large.reqPerSec)} (${fmtRatio(s.reqPerSec)})`,
    `${fmtMs(s.small.p50)} → ${fmtMs(s.large.p50)} (${fmtRatio(s.p50)})`,
    `${fmtMs(s.small.p99)} → ${fmtMs(s.large.p99)} (${fmtRatio(s.p99)})`,
    fmtRatio(s.worst),
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

/** One size's results. */
function renderSize(size: SizeResult): string {
  return `\n${sizeTitle(size)}\n${textTable(RESULT_HEADER, resultRows(size))}\n`;
}

/** The closing summary printed at the end of a run. */
export function renderSummary(report: Report): string {
  const parts: string[] = [];
  for (const size of report.sizes) parts.push(renderSize(size));
  const rows = scalingRows(report);
  if (rows.length > 0) {
    const sizes = report.sizes.map((s) => fmtInt(s.projects));
    parts.push(
      `\n${sizes[0]} → ${sizes[sizes.length - 1]} projects (factor for the worse)\n${textTable(SCALING_HEADER, rows)}\n`,
    );
  }
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
BENCH_DURATION=2 BENCH_SIZES=1000,10000 pnpm bench   # a short check that everything works
\`\`\`

Needs a PostgreSQL server whose role may create databases: \`BENCH_DATABASE_URL\`
(default \`postgres://postgres@127.0.0.1:5432/test\`) names it. For each size the run creates a
fresh database, seeds it (\`bench/seed.ts\`), starts the real server as \`pnpm start\` runs it
(\`node --import tsx apps/server/src/main.ts\`, \`LOG_LEVEL=warn\`) and the baseline
(\`bench/baseline-server.ts\`) as two child processes on that database, runs every scenario
against them with autocannon (a warm-up, then the measurement), stops both and drops the database.
Run it on an otherwise idle machine: the load generator, the server and PostgreSQL share it.

| flag | env | default | meaning |
| --- | --- | --- | --- |
| \`--duration\` | \`BENCH_DURATION\` | 10 | seconds measured per scenario |
| \`--warmup\` | \`BENCH_WARMUP\` | 5 | seconds of unmeasured load before each measurement (the server takes several seconds of load to reach its steady speed) |
| \`--sizes\` | \`BENCH_SIZES\` | 1000,100000 | seeded projects, one database per size; the first and last are compared |
| \`--tasks\` | \`BENCH_TASKS\` | 20000 | seeded discovery tasks, the same at every size |
| \`--connections\` | \`BENCH_CONNECTIONS\` | 64 | connections for single-item reads and claims |
| \`--batch-connections\` | \`BENCH_BATCH_CONNECTIONS\` | 16 | connections for the duplicate checks |
| \`--upsert-connections\` | \`BENCH_UPSERT_CONNECTIONS\` | 4 | connections for the upsert batches (on 2 cores, more batches at once only contend for the same cores) |
| \`--db-pool-size\` | \`BENCH_DB_POOL_SIZE\` | 10 | \`DB_POOL_SIZE\` of the server and the baseline |
| \`--claims-per-second\` | \`BENCH_CLAIMS_PER_SECOND\` | 5000 | PENDING tasks added for the claim scenario per second of its run |
| \`--scenarios\` | \`BENCH_SCENARIOS\` | all | comma-separated keys, e.g. \`baseline-slug,slug,upsert\` |
| \`--write\` | | | write this file |

The seeder also runs alone, on an existing empty database (it migrates it first):
\`node --import tsx bench/seed.ts --projects 100000 --tasks 20000 --database-url postgres://…\`.

### The data

Project *i* is a pure function of *i* (\`bench/data.ts\`): a third have Chinese names only (pinyin
slugs), a third Chinese names with English names, a third English names only; Markdown content;
3 links (CODEHOST, WEBSITE, then MODELHUB or PAPER) and 3 tags from a shared pool of 300
(Chinese names, most with English names). Slugs come from core's \`slugify\`. Tasks are half
PENDING, then IN_PROGRESS, COMPLETED (each with the CODEHOST url and id of the project it made)
and FAILED. Rows are written with set-based SQL (\`json_to_recordset\`, 2,000 projects per
statement, two connections), then \`VACUUM (ANALYZE)\`.

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
- \`search-zh\`, \`search-en\`, \`search-initials\`: GET /api/projects?q=模型 (one of ten Chinese
  nouns of the generated names and descriptions: it matches 27% of the projects), q=engine (16%),
  q=kyzs (the initials of 开源助手, a name of 0.7% of the projects), ranked by relevance.
- \`search-facets\`: GET /api/projects?q=模型&facets=tags,status,linkTypes.
- \`search-tags\`: GET /api/tags (the 50 tags with the most projects).
  The seeded rows get their search columns from the search migration's backfill (bench/search.ts),
  then VACUUM FULL gives the table the layout rows written once through the API have.

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
  }
  const rows = scalingRows(report);
  if (rows.length > 0) {
    const sizes = report.sizes.map((s) => fmtInt(s.projects));
    out.push('', `## ${sizes[0]} → ${sizes[sizes.length - 1]} projects`, '');
    out.push(
      'Each figure at both sizes, with its factor for the worse (req/s: small ÷ large; latency: large ÷ small); CPU ms/req for reference.',
      '',
    );
    out.push(mdTable(SCALING_HEADER, rows));
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
  out.push('', HOW_TO_RUN);
  return `${out.join('\n')}`;
}
