import { join } from 'node:path';
import autocannon from 'autocannon';
import type { RevisionContext } from '../packages/core/src/domain/revision-context.ts';
import type { ProjectInput } from '../packages/core/src/schemas/project.ts';
import { upsertInOrder } from '../packages/core/src/services/upsert.ts';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { newProject } from './data.ts';
import { type Child, createDatabase, type Database, ROOT, startChild } from './processes.ts';

// History's figures (docs/curation.md#history-revert-locks-and-restore), on PostgreSQL:
// - batch upsert with revisions against without: batches of 100 updates (every project changed,
//   so every one stores a revision) through core's upsertInOrder (services/upsert.ts) in this process, the two
//   kinds alternating round by round; projects/s of each and their ratio (target ≥ 85%). In
//   process, without HTTP: the revisions' share of the work is the largest it can be, so the
//   ratio through the API is at least this one.
// - the bytes a revision costs: the table's whole size (heap, TOAST, indexes) per revision, and
//   the average pg_column_size of a stored project body.
// - a project with 1,000 revisions: GET /api/projects/{slug}/revisions (first page, and a page
//   from the middle by cursor) against GET /api/projects/{slug} of the same project, req/s with
//   4 connections on a server process (target: within ±50%).

export interface HistoryResult {
  batch: number;
  rounds: number;
  withPerSec: number;
  withoutPerSec: number;
  ratio: number;
  revisions: number;
  bytesPerRevision: number;
  bodyBytes: number;
  slugPerSec: number;
  revisionsPerSec: number;
  revisionsCursorPerSec: number;
  notes: string[];
}

const BATCH = 100;

async function rate(url: string, path: string, seconds: number): Promise<{ perSec: number; non2xx: number }> {
  const result = await autocannon({ url: url + path, connections: 4, duration: seconds, timeout: 30 });
  return { perSec: result.requests.average, non2xx: result.non2xx };
}

export async function runHistoryBench(options: {
  adminUrl: string;
  apiKey: string;
  duration: number;
  dbPoolSize: number;
  /** Projects updated per kind and round (multiples of 100). */
  projects?: number;
  rounds?: number;
  track(x: Child | Database): void;
}): Promise<HistoryResult> {
  const projects = options.projects ?? 2000;
  const rounds = options.rounds ?? 4;
  const notes: string[] = [];
  const database = await createDatabase(options.adminUrl, 'history');
  options.track(database);
  const handle = await connect(database.url, { poolSize: options.dbPoolSize });
  try {
    await migrateToLatest(handle.db);
    const inputs = Array.from({ length: projects }, (_, i) => newProject('history', i) as ProjectInput);
    const write = async (batch: typeof inputs, how: RevisionContext) =>
      handle.db.transaction().execute((trx) => upsertInOrder(trx, batch, how));
    for (let i = 0; i < projects; i += BATCH)
      await write(inputs.slice(i, i + BATCH), { via: 'upsert', actor: 'bench' });

    // Every round updates every project twice, once of each kind. The kinds alternate batch by
    // batch (in turn first), so that the machine's other work weighs on both alike.
    let version = 0;
    const time = { with: 0, without: 0 };
    for (let round = 0; round < rounds; round++) {
      version += 2;
      for (let i = 0; i < projects; i += BATCH) {
        const kinds =
          (i / BATCH + round) % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const);
        for (const [k, kind] of kinds.entries()) {
          const batch = inputs
            .slice(i, i + BATCH)
            .map((p) => ({ ...p, description: `${p.description} (v${version + k})` }));
          const started = performance.now();
          await write(batch, {
            via: 'upsert',
            actor: 'bench',
            ...(kind === 'without' && { record: false as const }),
          });
          time[kind] += performance.now() - started;
        }
      }
    }
    const withPerSec = (projects * rounds) / (time.with / 1000);
    const withoutPerSec = (projects * rounds) / (time.without / 1000);

    const size = (
      await handle.pool.query<{ n: string; total: string; body: string }>(
        `select count(*) as n, pg_total_relation_size('project_revisions') as total,
           coalesce(avg(pg_column_size(project)), 0) as body from project_revisions`,
      )
    ).rows[0]!;
    const revisions = Number(size.n);

    // One project with 1,000 revisions.
    const deep = newProject('history-deep', 0) as ProjectInput;
    const slug = (await write([deep], { via: 'upsert', actor: 'bench' })).results[0]!.slug;
    for (let i = 1; i < 1000; i++)
      await write([{ ...deep, description: `${deep.description} (v${i})` }], {
        via: 'upsert',
        actor: 'bench',
      });
    await handle.pool.query('vacuum analyze project_revisions');

    const server = await startChild('history-server', join(ROOT, 'apps/server/src/main.ts'), {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: options.apiKey,
      DB_POOL_SIZE: String(options.dbPoolSize),
      LOG_LEVEL: 'warn',
      TASK_REAP_INTERVAL_MS: '0',
      // the retention job runs at start: it would cut the 1,000 revisions to the default 100
      REVISIONS_KEEP: '100000',
    });
    options.track(server);
    try {
      const base = `/api/projects/${encodeURIComponent(slug)}`;
      const page = await fetch(`${server.url}${base}/revisions?limit=20`).then((r) => r.json());
      let cursor = page.nextCursor as string;
      for (let i = 0; i < 24; i++) {
        const next = await fetch(`${server.url}${base}/revisions?limit=20&cursor=${cursor}`).then((r) =>
          r.json(),
        );
        if (typeof next.nextCursor !== 'string')
          throw new Error(
            `history bench: page ${i + 2} of the revisions: ${JSON.stringify(next).slice(0, 300)}`,
          );
        cursor = next.nextCursor;
      }
      const check = await fetch(`${server.url}${base}/revisions?cursor=${cursor}`);
      if (check.status !== 200)
        throw new Error(
          `history bench: the cursor page answered ${check.status}: ${await check.text()} (cursor ${cursor})`,
        );
      await check.arrayBuffer().catch(() => undefined);
      const seconds = Math.max(3, options.duration);
      await rate(server.url, base, 1); // warm-up
      // the three reads in turn, a second each, `seconds` times: the machine's other work weighs on all alike
      const paths = {
        bySlug: base,
        first: `${base}/revisions`,
        middle: `${base}/revisions?cursor=${cursor}`,
      };
      const sum = {
        bySlug: { perSec: 0, non2xx: 0 },
        first: { perSec: 0, non2xx: 0 },
        middle: { perSec: 0, non2xx: 0 },
      };
      for (let i = 0; i < seconds; i++)
        for (const key of ['bySlug', 'first', 'middle'] as const) {
          const r = await rate(server.url, paths[key], 1);
          sum[key].perSec += r.perSec / seconds;
          sum[key].non2xx += r.non2xx;
        }
      const { bySlug, first, middle } = sum;
      for (const [name, r] of [
        ['by slug', bySlug],
        ['revisions', first],
        ['revisions by cursor', middle],
      ] as const)
        if (r.non2xx > 0) notes.push(`${name}: ${r.non2xx} replies were not 2xx`);
      return {
        batch: BATCH,
        rounds,
        withPerSec,
        withoutPerSec,
        ratio: withPerSec / withoutPerSec,
        revisions,
        bytesPerRevision: Number(size.total) / revisions,
        bodyBytes: Number(size.body),
        slugPerSec: bySlug.perSec,
        revisionsPerSec: first.perSec,
        revisionsCursorPerSec: middle.perSec,
        notes,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await handle.close();
    await database.drop();
  }
}

const round = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(0)}%`;

export function renderHistory(r: HistoryResult): string[] {
  return [
    '## History (bench/history.ts)',
    '',
    `Batch upsert (batches of ${r.batch} updates, every project changed, ${r.rounds} rounds, the two kinds alternating batch by batch, in process ` +
      'through core, no HTTP), and a project with 1,000 revisions read through a server process (4 connections).',
    '',
    '| Figure | Value | Target |',
    '| --- | --- | --- |',
    `| upserts with revisions | ${round(r.withPerSec)} projects/s | |`,
    `| upserts without revisions | ${round(r.withoutPerSec)} projects/s | |`,
    `| with / without | ${pct(r.ratio)} | ≥ 85% |`,
    `| bytes per revision (table, TOAST and indexes / revisions) | ${round(r.bytesPerRevision)} B (${round(r.revisions)} revisions) | |`,
    `| average stored project body (pg_column_size) | ${round(r.bodyBytes)} B | |`,
    `| GET /api/projects/{slug} | ${round(r.slugPerSec)} req/s | |`,
    `| GET …/revisions (first page of 20) | ${round(r.revisionsPerSec)} req/s (${pct(r.revisionsPerSec / r.slugPerSec)}) | ±50% |`,
    `| GET …/revisions?cursor= (page 26 of 50) | ${round(r.revisionsCursorPerSec)} req/s (${pct(r.revisionsCursorPerSec / r.slugPerSec)}) | ±50% |`,
    ...(r.notes.length ? ['', ...r.notes.map((n) => `- ${n}`)] : []),
    '',
  ];
}
