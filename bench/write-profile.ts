import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { createApp } from '../apps/server/src/app.ts';
import { createLogger } from '../apps/server/src/logger.ts';
import { ReadModel } from '../packages/core/src/read-model/read-model.ts';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { newProject, seededProject } from './data.ts';
import { createDatabase } from './processes.ts';
import { seedProjects } from './seed.ts';

// `node --import tsx [--cpu-prof --cpu-prof-dir DIR] bench/write-profile.ts`: where one batch of 100
// of endpoint 1 spends its time, at 100,000 projects on PostgreSQL. The server runs in
// this process (createApp over a pool that times every statement it sends); one client sends
// batches one after the other, so the stages of a batch add up to its wall time. A second pass
// with auto_explain (plans sent back as notices) writes EXPLAIN (ANALYZE, BUFFERS) of every
// statement, triggers' nested statements included, to --explain.

const { values: flags } = parseArgs({
  options: {
    projects: { type: 'string', default: '100000' },
    batches: { type: 'string', default: '30' },
    explain: { type: 'string', default: '' },
    'cpu-profile': { type: 'string', default: '' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const PROJECTS = Number(flags.projects);
const BATCHES = Number(flags.batches);
const apiKey = 'profile-key';

/** Which stage of a write a statement belongs to, from its text. */
const STAGES: [string, RegExp][] = [
  ['begin / commit', /^(begin|commit|rollback)/i],
  ['advisory locks + stored tags + now()', /with locked as/],
  ['advisory locks', /pg_advisory_xact_lock/],
  ['identity lookup (+ stored links, tags, row version)', /with found as/],
  ['identity lookup', /select distinct on \(k\.item\)/],
  ['one write: projects, links, tags, revisions (+ feed, webhook triggers)', /inserted as \(/],
  [
    'tag resolution',
    /from tags where tags\.name|select slug from tags|insert into "tags"|update tags t set name_en/,
  ],
  ['insert projects (+ feed, webhook triggers)', /insert into projects/],
  ['update projects (+ feed, webhook triggers)', /update projects p set/],
  ['links/tags: read stored', /json_agg\(l\) from unnest/],
  ['links/tags: write diff', /deleted_links as/],
  ['locked projects: read', /for update of "p"/],
  ['revision bodies: re-read projects', /from "projects" as "p"/],
  ['revisions: insert (+ latest hash)', /insert into project_revisions/],
  ['transaction id (+ its changes)', /pg_current_xact_id_if_assigned/],
  ['read model: changes of own xids', /from changes c where c\.xid = any/],
  ['read model: re-read projects', /cross join lateral \(select \* from projects where id = u\.id/],
  ['read model: re-read tags', /cross join lateral \(select \* from tags where id = u\.id/],
  ['read model follower (background)', /from changes|search_synonyms|pg_snapshot_xmin/],
  ['webhook dispatcher (background)', /webhook_deliveries|webhook_attempts/],
];
const stageOf = (text: string) =>
  STAGES.find(([, re]) => re.test(text))?.[0] ?? `other: ${text.slice(0, 60)}`;

interface Tally {
  ms: Map<string, number>;
  calls: Map<string, number>;
}
const newTally = (): Tally => ({ ms: new Map(), calls: new Map() });
let current: Tally = newTally();

/** Times every statement a pg client sends (the round trip as the server sees it), by stage. */
function timeStatements(proto: { query: (...args: unknown[]) => unknown }) {
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const t0 = performance.now();
    const tally = current;
    const done = () => {
      const stage = stageOf(text);
      tally.ms.set(stage, (tally.ms.get(stage) ?? 0) + performance.now() - t0);
      tally.calls.set(stage, (tally.calls.get(stage) ?? 0) + 1);
    };
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, done);
    return result;
  };
}

const database = await createDatabase(flags['database-url'], 'writes_profile');
const handle = await connect(database.url, { poolSize: 10 });
const plans: string[] = [];
let explaining = false;
handle.pool.on('connect', (client) => {
  client.on('notice', (n) => {
    if (explaining) plans.push(n.message ?? '');
  });
});
let receiver: Server | undefined;
try {
  await migrateToLatest(handle.db);
  console.log(`seeding ${PROJECTS} projects …`);
  const seeded = await seedProjects(handle.pool, PROJECTS);
  await handle.pool.query('vacuum analyze');
  const probe = await handle.pool.connect();
  timeStatements(Object.getPrototypeOf(probe));
  probe.release();
  const db = handle.db;
  const readModel = new ReadModel({ db });
  await readModel.start();
  const app = createApp({
    db,
    pool: handle.pool,
    apiKey,
    logger: createLogger('warn'),
    bodyLimitBytes: 5 * 1024 * 1024,
    readModel,
    allowPrivateWebhookTargets: true,
    webDir: false,
  });
  const server = app.listen(4301, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = 'http://127.0.0.1:4301';

  const post = async (projects: unknown[]) => {
    const res = await fetch(`${url}/api/webhook/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ projects }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 300)}`);
    const reply = JSON.parse(text) as { failed: number };
    if (reply.failed > 0) throw new Error(`failed items: ${text.slice(0, 300)}`);
  };

  let fresh = 0;
  let updated = 0;
  const kinds: Record<string, (b: number) => unknown[]> = {
    new: () => Array.from({ length: 100 }, () => newProject('prof', fresh++)),
    updates: (b) => Array.from({ length: 100 }, (_, k) => seededProject(b * 100 + k, 1 + updated)),
    unchanged: (b) => Array.from({ length: 100 }, (_, k) => seededProject(b * 100 + k, 1 + updated)),
  };
  const results: { phase: string; batchMs: number; tally: Tally }[] = [];
  const run = async (phase: string, kind: string, batches: number, offset = 0) => {
    current = newTally();
    const t0 = performance.now();
    for (let b = 0; b < batches; b++) await post(kinds[kind]!(offset + b));
    const batchMs = (performance.now() - t0) / batches;
    results.push({ phase, batchMs, tally: current });
    console.log(`${phase}: ${batchMs.toFixed(1)} ms per batch of 100`);
  };
  // warm-up: plans prepared, JIT warm
  await run('warm-up', 'new', 10);
  // the CPU profile covers the measured batches only (not the seeding or the model's build)
  const inspector = new Session();
  if (flags['cpu-profile']) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  await run('new', 'new', BATCHES);
  await run('updates', 'updates', BATCHES, 100);
  await run('unchanged', 'unchanged', BATCHES, 100);
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  receiver.listen(4302, '127.0.0.1');
  await new Promise((r) => receiver!.once('listening', r));
  const hook = await fetch(`${url}/api/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ url: 'http://127.0.0.1:4302/hook', events: ['*'] }),
  });
  if (!hook.ok) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);
  await run('new, webhook subscribed', 'new', BATCHES);
  updated++;
  await run('updates, webhook subscribed', 'updates', BATCHES, 100);

  if (flags['cpu-profile']) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(flags['cpu-profile'], JSON.stringify(profile));
    inspector.disconnect();
  }
  const stages = [...new Set(results.flatMap((r) => [...r.tally.ms.keys()]))].sort(
    (a, b) => STAGES.findIndex(([s]) => s === a) - STAGES.findIndex(([s]) => s === b),
  );
  const shown = results.filter((r) => r.phase !== 'warm-up');
  const lines = [
    `| stage (ms per batch of 100; statements per batch) | ${shown.map((r) => r.phase).join(' | ')} |`,
    `| --- | ${shown.map(() => '---:').join(' | ')} |`,
  ];
  for (const stage of stages) {
    lines.push(
      `| ${stage} | ${shown
        .map((r) => {
          const ms = (r.tally.ms.get(stage) ?? 0) / BATCHES;
          const calls = (r.tally.calls.get(stage) ?? 0) / BATCHES;
          return calls === 0 ? '–' : `${ms.toFixed(1)} (${calls.toFixed(1)})`;
        })
        .join(' | ')} |`,
    );
  }
  const sqlMs = (r: (typeof shown)[number]) => [...r.tally.ms.values()].reduce((a, b) => a + b, 0) / BATCHES;
  lines.push(
    `| all statements | ${shown.map((r) => sqlMs(r).toFixed(1)).join(' | ')} |`,
    `| the rest: HTTP, JSON, validation, bodies and hashes, read model apply (JS) | ${shown
      .map((r) => Math.max(0, r.batchMs - sqlMs(r)).toFixed(1))
      .join(' | ')} |`,
    `| **wall time per batch** | ${shown.map((r) => `**${r.batchMs.toFixed(1)}**`).join(' | ')} |`,
  );
  console.log(lines.join('\n'));

  if (flags.explain) {
    // Plans of every statement (nested ones too) of two batches of each kind.
    const pool = handle.pool;
    const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
    for (const c of clients) {
      await c.query(
        "load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; " +
          'set auto_explain.log_buffers = on; set auto_explain.log_nested_statements = on; ' +
          "set auto_explain.log_level = 'notice'",
      );
    }
    for (const c of clients) c.release();
    for (const [phase, kind, offset] of [
      ['new', 'new', 0],
      ['updates', 'updates', 100],
      ['unchanged', 'unchanged', 100],
    ] as const) {
      explaining = true;
      plans.push(`\n======== ${phase}\n`);
      if (kind === 'updates') updated++;
      await post(kinds[kind]!(offset));
      await new Promise((r) => setTimeout(r, 200));
      explaining = false;
    }
    writeFileSync(flags.explain, `${plans.join('\n')}\n`);
    console.log(`plans written to ${flags.explain}`);
  }
  void seeded;
  await new Promise<void>((r) => server.close(() => r()));
  await readModel.stop();
} finally {
  receiver?.close();
  await handle.close().catch(() => {});
  await database.drop();
}
