import { renderChanges } from './changes.ts';
import { renderHistory } from './history.ts';
import {
  beyond,
  MODEL_HEADER,
  modelRows,
  notes,
  RESULT_HEADER,
  type Report,
  resultRows,
  scalingHeader,
  scalingRows,
  scalingTitle,
  sizeTitle,
  UPSERT_HEADER,
  upsertRows,
} from './report.ts';
import { fmtInt, mdTable, verdict } from './report-format.ts';
import { slugOf, targets } from './report-targets.ts';
import { WRITER_HEADER, writerRows } from './writer.ts';

const HOW_TO_RUN = `## How to run

\`\`\`sh
pnpm bench                 # print the figures
pnpm bench -- --write      # … and write them: bench/RESULTS.md (the current figures) and bench/LAST-RUN.md (this run's tables)
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

/** bench/LAST-RUN.md. */
export function renderMarkdown(report: Report): string {
  const { machine, settings } = report;
  const out: string[] = [
    '# Benchmark runs: the detailed tables',
    '',
    'The current figures, one table per area with their targets, are in [RESULTS.md](RESULTS.md). This',
    "file holds the latest full run's tables and the sections each part rewrites; older runs are in git history.",
    '',
  ];
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
