import { loadavg } from 'node:os';
import { join } from 'node:path';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { type Child, createDatabase, ROOT, startChild } from './processes.ts';

type Pool = Awaited<ReturnType<typeof connect>>['pool'];

interface Leased {
  id: string;
  leaseToken: string;
}
interface Page {
  tasks: { id: string }[];
  total: number;
  nextCursor: string | null;
}

// The queue's figures (docs/workers.md#running-workers, and endpoint 5's total): on PostgreSQL with N
// COMPLETED tasks seeded set-based (generate_series, not through the API), at 20k and 1M by default:
// - claim: 4 workers, each looping POST /api/discovery/tasks/claim {limit: 50}, tasks/s
// - cycle: 4 workers, each claim {limit: 10} → per task heartbeat → complete with a one-project
//   ProjectInput (leaseToken), tasks/s
// - upsert-1: 4 workers, each POST /api/webhook/projects with one project per request, projects/s
//   (the reference of the cycle target, in the same run on the same server)
// - list-total: GET /api/discovery/tasks?limit=20 (first page with its exact total), and
//   status=COMPLETED by cursor from the middle of the table, req/s with 4 connections.

export interface QueueBenchSettings {
  adminUrl: string;
  apiKey: string;
  /** Seconds per measurement. */
  duration: number;
  dbPoolSize: number;
  /** COMPLETED tasks seeded per size. */
  sizes: number[];
}

export interface QueueSizeResult {
  tasks: number;
  seedSeconds: number;
  claimPerSec: number;
  cyclePerSec: number;
  upsertPerSec: number;
  listPerSec: number;
  listCursorPerSec: number;
  /** The machine's 1-minute load average when the size started (the figures are worth little when it is high). */
  load: number;
  notes: string[];
}

export const WORKERS = 4;

// url_key is what core's urlKey makes of these urls (host and path: nothing to normalise).
async function seedCompleted(pool: Pool, n: number): Promise<void> {
  // created one millisecond apart, oldest first; all COMPLETED (the table a queue grows into)
  await pool.query(
    `insert into discovery_tasks (id, source_url, url_key, source_type, status, created_at, started_at, completed_at, attempt)
     select 'done' || lpad(g::text, 8, '0'), 'https://bench.example.org/done/' || g, 'bench.example.org/done/' || g,
            'bench', 'COMPLETED',
            now() - interval '2 hours' - ($1::int - g) * interval '1 millisecond',
            now() - interval '1 hour', now() - interval '1 hour', 1
     from generate_series(1, $1::int) g`,
    [n],
  );
}

async function seedPending(pool: Pool, tag: string, n: number): Promise<void> {
  await pool.query(
    `insert into discovery_tasks (id, source_url, url_key, source_type, created_at)
     select $2::text || lpad(g::text, 8, '0'), 'https://bench.example.org/' || $2::text || '/' || g,
            'bench.example.org/' || $2::text || '/' || g, 'bench',
            now() - interval '1 hour' + g * interval '1 microsecond'
     from generate_series(1, $1::int) g`,
    [n, tag],
  );
}

async function post<T = unknown>(base: string, key: string, path: string, body: unknown): Promise<T> {
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json as T;
}

/** Runs `worker` in WORKERS loops for `seconds`; resolves to units done per second. */
async function loops(
  seconds: number,
  worker: (w: number, until: number) => Promise<number>,
): Promise<number> {
  const started = performance.now();
  const until = Date.now() + seconds * 1000;
  const done = await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w, until)));
  const elapsed = (performance.now() - started) / 1000;
  return done.reduce((a, b) => a + b, 0) / elapsed;
}

let projectSeq = 0;
function oneProject(tag: string) {
  const n = ++projectSeq;
  return {
    name: `队列基准 ${tag} ${n}`,
    nameEn: `Queue Bench ${tag} ${n}`,
    description: `A project found by a queue worker (${n}).`,
    tags: [{ name: '基准测试', nameEn: 'Benchmark' }],
    links: [{ type: 'CODEHOST', url: `https://github.com/bench-${tag}/q${n}` }],
  };
}

async function runSize(settings: QueueBenchSettings, tasks: number, tag: string): Promise<QueueSizeResult> {
  console.log(`\n== queue: ${tasks.toLocaleString('en-US')} COMPLETED tasks`);
  const load = loadavg()[0] ?? 0;
  const database = await createDatabase(settings.adminUrl, `queue_${tasks}`);
  const handle = await connect(database.url, { poolSize: 2 });
  let server: Child | undefined;
  const notes: string[] = [];
  try {
    await migrateToLatest(handle.db);
    const t0 = performance.now();
    await seedCompleted(handle.pool, tasks);
    // enough PENDING tasks for the claim loops at 8× the target (an idle machine claims
    // about 20,000 tasks/s); the cycles get their own after the claims (below)
    await seedPending(handle.pool, `c${tag}`, Math.max(100_000, 40_000 * settings.duration));
    await handle.pool.query('vacuum (analyze) discovery_tasks');
    const seedSeconds = (performance.now() - t0) / 1000;
    console.log(`seeded in ${seedSeconds.toFixed(1)} s into ${database.name}`);
    server = await startChild('server', join(ROOT, 'apps/server/src/main.ts'), {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: settings.apiKey,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: String(settings.dbPoolSize),
    });
    const base = server.url;
    const key = settings.apiKey;

    // warm-up: the statements get prepared on the pool's connections
    for (let i = 0; i < 20; i++) {
      const { tasks: got } = await post<{ tasks: Leased[] }>(base, key, '/api/discovery/tasks/claim', {
        limit: 1,
        leaseSeconds: 300,
      });
      for (const t of got)
        await post(base, key, `/api/discovery/tasks/${t.id}/release`, { leaseToken: t.leaseToken });
    }

    const claimPerSec = await loops(settings.duration, async (w, until) => {
      let n = 0;
      while (Date.now() < until) {
        const { tasks: got } = await post<{ tasks: Leased[] }>(base, key, '/api/discovery/tasks/claim', {
          limit: 50,
          leaseSeconds: 3600,
          worker: `bench-${w}`,
        });
        if (got.length === 0) {
          notes.push('claim: ran out of PENDING tasks');
          break;
        }
        n += got.length;
      }
      return n;
    });
    console.log(`  claim (batch 50, ${WORKERS} workers): ${Math.round(claimPerSec)} tasks/s`);

    // the cycles' own PENDING tasks, first in queue order (the claims may have left none)
    await seedPending(handle.pool, `y${tag}`, 20_000 + 2_000 * settings.duration);
    await handle.pool.query('analyze discovery_tasks');

    const cyclePerSec = await loops(settings.duration, async (w, until) => {
      let n = 0;
      while (Date.now() < until) {
        const { tasks: got } = await post<{ tasks: Leased[] }>(base, key, '/api/discovery/tasks/claim', {
          limit: 10,
          leaseSeconds: 300,
          worker: `cycle-${w}`,
        });
        if (got.length === 0) {
          notes.push('cycle: ran out of PENDING tasks');
          break;
        }
        for (const t of got) {
          if (Date.now() >= until) {
            await post(base, key, `/api/discovery/tasks/${t.id}/release`, { leaseToken: t.leaseToken });
            continue;
          }
          await post(base, key, `/api/discovery/tasks/${t.id}/heartbeat`, { leaseToken: t.leaseToken });
          await post(base, key, `/api/discovery/tasks/${t.id}/complete`, {
            leaseToken: t.leaseToken,
            explorationData: oneProject(`${tag}c`),
          });
          n++;
        }
      }
      return n;
    });
    console.log(`  cycle claim→heartbeat→complete (${WORKERS} workers): ${Math.round(cyclePerSec)} tasks/s`);

    const upsertPerSec = await loops(settings.duration, async (_w, until) => {
      let n = 0;
      while (Date.now() < until) {
        await post(base, key, '/api/webhook/projects', { projects: [oneProject(`${tag}u`)] });
        n++;
      }
      return n;
    });
    console.log(
      `  upsert, one project per request (${WORKERS} workers): ${Math.round(upsertPerSec)} projects/s`,
    );

    const get = async (path: string): Promise<Page> => {
      const r = await fetch(base + path, { headers: { 'x-api-key': key } });
      const json = await r.json();
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
      return json as Page;
    };
    const first = await get('/api/discovery/tasks?limit=20');
    if (first.total < tasks) notes.push(`list: total ${first.total} < ${tasks}`);
    const listPerSec = await loops(settings.duration, async (_w, until) => {
      let n = 0;
      while (Date.now() < until) {
        await get('/api/discovery/tasks?limit=20');
        n++;
      }
      return n;
    });
    // a cursor in the middle of the COMPLETED tasks
    const { rows } = await handle.pool.query(
      `select id from discovery_tasks where status = 'COMPLETED' order by created_at, id offset $1 limit 1`,
      [Math.floor(tasks / 2)],
    );
    const mid = await get(`/api/discovery/tasks?status=COMPLETED&limit=1&offset=${Math.floor(tasks / 2)}`);
    const cursor = mid.nextCursor as string;
    if (mid.tasks[0]?.id !== rows[0]?.id) notes.push('list: the offset page is not the expected task');
    const listCursorPerSec = await loops(settings.duration, async (_w, until) => {
      let n = 0;
      while (Date.now() < until) {
        await get(`/api/discovery/tasks?status=COMPLETED&limit=20&cursor=${cursor}`);
        n++;
      }
      return n;
    });
    console.log(
      `  endpoint 5 with total: first page ${Math.round(listPerSec)} req/s, ` +
        `status=COMPLETED by cursor mid-table ${Math.round(listCursorPerSec)} req/s`,
    );
    return {
      tasks,
      seedSeconds,
      claimPerSec,
      cyclePerSec,
      upsertPerSec,
      listPerSec,
      listCursorPerSec,
      load,
      notes: [...new Set(notes)],
    };
  } finally {
    await server?.stop();
    await handle.close();
    await database.drop();
  }
}

export async function runQueueBench(settings: QueueBenchSettings): Promise<QueueSizeResult[]> {
  const results: QueueSizeResult[] = [];
  for (const [i, tasks] of settings.sizes.entries()) results.push(await runSize(settings, tasks, `s${i}`));
  return results;
}
