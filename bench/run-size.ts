import { randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { measure } from './measure.ts';
import { type Freshness, measureFreshness, modelFigures } from './model.ts';
import { type Child, createDatabase, memoryOf, ROOT, startChild } from './processes.ts';
import type { SizeResult } from './report.ts';
import { measureRestart } from './restart.ts';
import {
  adminUrl,
  apiKey,
  apiMax,
  claimsPerSecond,
  cpuProfile,
  freshnessSamples,
  responseCacheMb,
  SERVER,
  settings,
  tasks,
  wanted,
  writerBatch,
  writerRate,
} from './run-settings.ts';
import { children, databases } from './run-tracked.ts';
import type { Scenario } from './scenario.ts';
import { scenarios } from './scenarios.ts';
import { prepareSearch, searchScenarios } from './search.ts';
import { type SeedResult, seedProjects, writeProjects } from './seed.ts';
import { seedTasks } from './seed-tasks.ts';
import { runWithWriter, type WriterRun } from './writer.ts';

/* One size of `pnpm bench` (run.ts): its database, servers, scenarios and figures. */

/**
 * A named key for the keyed read, with a limit of its own that the bench never
 * reaches: every request is looked up and counted (on PostgreSQL in leases of 1/20 of the
 * limit, docs/keys-and-limits.md), none refused.
 */
async function createNamedKey(url: string, adminKey: string): Promise<string> {
  const res = await fetch(`${url}/api/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({
      name: 'bench-reader',
      scopes: ['projects:write'],
      rateLimit: { requests: 1_000_000, windowSeconds: 60 },
    }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`creating the bench key: ${res.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { key: string } }).data.key;
}

/** `/healthz?verbose=1` asked on a connection of its own: its body when 200, else undefined. */
function healthOnNewConnection(url: string): Promise<{ process?: number } | undefined> {
  return new Promise((resolve) => {
    const req = httpGet(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(text) as { process?: number }) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.on('error', () => resolve(undefined));
  });
}

/**
 * `processes`: GET by slug (5,000 warm slugs) and a search by a common Chinese word, on `one`
 * and on a server started with WEB_CONCURRENCY=2 on the same database, alternately (two rounds),
 * printed as req/s and their ratio. Reported by hand in LAST-RUN.md ("Sixth run").
 */
async function compareProcesses(one: Child, env: Record<string, string>, list: Scenario[]): Promise<void> {
  const two = await startChild(
    'server-2p',
    SERVER,
    { ...env, WEB_CONCURRENCY: '2' },
    { readyTimeoutSeconds: 1800 },
  );
  children.add(two);
  try {
    // both processes of the pair answer /healthz (each builds its own model)
    const seen = new Set<number>();
    // a new connection per ask: a process takes connections, not requests (whichever accepts first)
    for (let i = 0; i < 600 && seen.size < 2; i++) {
      const body = await healthOnNewConnection(`${two.url}/healthz?verbose=1`);
      if (body?.process !== undefined) seen.add(body.process);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (seen.size < 2) throw new Error('WEB_CONCURRENCY=2: the second process never answered /healthz 200');
    const pick = (key: string) =>
      list.find((s) => s.key === key) ?? searchScenarios(settings).find((s) => s.key === key);
    const measured = [pick('slug-unkeyed'), pick('search-zh')].filter((s): s is Scenario => s !== undefined);
    console.log(`  WEB_CONCURRENCY=2 (${seen.size} processes answering) against one process:`);
    for (const scenario of measured) {
      const rates: [number, number][] = [];
      for (let round = 0; round < 2; round++) {
        const a = await measure(scenario, one, settings);
        const b = await measure(scenario, two, settings);
        rates.push([a.reqPerSec, b.reqPerSec]);
      }
      console.log(
        `  processes-${scenario.key} … one ${rates.map(([a]) => Math.round(a)).join(' / ')} req/s, ` +
          `two ${rates.map(([, b]) => Math.round(b)).join(' / ')} req/s, ` +
          `two ÷ one ${rates.map(([a, b]) => (b / a).toFixed(2)).join(' / ')}`,
      );
    }
  } finally {
    await two.stop();
    children.delete(two);
  }
}

export async function runSize(projects: number): Promise<SizeResult> {
  console.log(`\n== ${projects.toLocaleString('en-US')} projects, ${tasks.toLocaleString('en-US')} tasks`);
  const database = await createDatabase(adminUrl, String(projects));
  databases.add(database);
  const handle = await connect(database.url, { poolSize: 3 });
  const env = {
    DATABASE_URL: database.url,
    WEBHOOK_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: String(settings.dbPoolSize),
    ...(responseCacheMb !== '' && { RESPONSE_CACHE_MB: responseCacheMb }),
  };
  const start = async (name: string, nodeArgs: string[] = []) => {
    // A million projects take a while to build into a model; the bench waits for it.
    const child = await startChild(name, SERVER, env, { readyTimeoutSeconds: 1800, nodeArgs });
    children.add(child);
    return child;
  };
  const stop = async (child: Child) => {
    await child.stop();
    children.delete(child);
  };
  try {
    await migrateToLatest(handle.db);
    const started = performance.now();
    const via = projects <= apiMax ? 'api' : 'sql';
    let written: Awaited<ReturnType<typeof seedProjects>>;
    if (via === 'api') {
      const writer = await start('writer');
      written = await writeProjects(writer.url, apiKey, projects, settings.upsertConnections);
      await stop(writer);
    } else {
      written = await seedProjects(handle.pool, projects);
      const searchSeconds = await prepareSearch(handle.db);
      if (searchSeconds !== undefined) console.log(`search columns filled in ${searchSeconds.toFixed(1)} s`);
    }
    const projectSeconds = (performance.now() - started) / 1000;
    const { tasks: seededTasks, vacuumSeconds } = await seedTasks(handle.pool, tasks, written);
    const seeded: SeedResult = {
      projects,
      slugs: written.slugs,
      tasks: seededTasks,
      via,
      seconds: (performance.now() - started) / 1000,
      projectSeconds,
      vacuumSeconds,
    };
    console.log(
      `seeded in ${seeded.seconds.toFixed(1)} s (projects ${via === 'api' ? 'through endpoint 1' : 'with SQL'} ` +
        `${projectSeconds.toFixed(1)} s, VACUUM ANALYZE ${vacuumSeconds.toFixed(1)} s) into ${database.name}`,
    );

    // Started on the seeded database, the server builds its read model before /healthz is 200.
    const server = await start('server', cpuProfile ? ['--cpu-prof', '--cpu-prof-dir', cpuProfile] : []);
    const model = await modelFigures(server);
    console.log(
      `server pid ${server.pid} at ${server.url}: ready after ${server.readySeconds.toFixed(1)} s` +
        `${model.buildSeconds === undefined ? '' : ` (model built in ${model.buildSeconds.toFixed(1)} s)`}` +
        `${model.ready ? `, ${(model.ready.rss / 2 ** 20).toFixed(0)} MB resident` : ''}`,
    );
    const baseline = await startChild('baseline', join(ROOT, 'bench/baseline-server.ts'), env);
    children.add(baseline);
    console.log(`baseline pid ${baseline.pid} at ${baseline.url}`);

    const namedKey = wanted('slug-keyed') ? await createNamedKey(server.url, apiKey) : undefined;
    const all = scenarios(
      {
        apiKey,
        seed: seeded,
        pool: handle.pool,
        runTag: randomBytes(3).toString('hex'),
        ...(namedKey && { namedKey }),
      },
      { ...settings, claimsPerSecond },
    );
    const list = all.filter((s) => wanted(s.key));
    const measurements = [];
    for (const scenario of list) {
      process.stdout.write(`  ${scenario.key} … `);
      const m = await measure(scenario, scenario.target === 'baseline' ? baseline : server, settings);
      measurements.push(m);
      console.log(
        `${Math.round(m.reqPerSec)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms` +
          `${m.cpuMsPerRequest === undefined ? '' : `, ${m.cpuMsPerRequest.toFixed(2)} ms CPU/req`}` +
          `${m.non2xx + m.errors > 0 ? `, ${m.non2xx} non-2xx, ${m.errors} without reply` : ''}`,
      );
    }
    // autocannon drops its connections at the end with requests in flight; let them finish.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stop(baseline);
    // Searches while a writer updates projects (bench/writer.ts): `writer` runs them all.
    const withWriter = searchScenarios(settings).filter((s) => wanted('writer') || wanted(`writer-${s.key}`));
    let writer: WriterRun[] | undefined;
    if (withWriter.length > 0) {
      console.log(`  while a writer updates ${writerRate} projects/s in batches of ${writerBatch}:`);
      writer = await runWithWriter(
        withWriter,
        server,
        settings,
        { apiKey, projects, rate: writerRate, batch: writerBatch },
        (line) => console.log(line),
      );
    }
    const end = memoryOf(server.pid);
    if (end) model.end = end;

    // WEB_CONCURRENCY=2 against this one process: a second server of two processes
    // on the same database, the two measured in turn, twice.
    if (wanted('processes')) await compareProcesses(server, env, all);
    // a restart from the read model's snapshot (bench/restart.ts)
    if (wanted('restart')) await measureRestart(SERVER, env, children);

    // Freshness: a second process on the same database (it builds its own model first) takes
    // the writes; the measured server is polled for them.
    let freshness: Freshness | undefined;
    if (wanted('freshness')) {
      const writer = await start('writer');
      freshness = await measureFreshness(writer, server, apiKey, freshnessSamples);
      console.log(
        `  freshness: write through another process → found by search here, p50 ${freshness.p50.toFixed(1)} ms, ` +
          `p99 ${freshness.p99.toFixed(1)} ms (${freshness.samples} writes)`,
      );
      await stop(writer);
    }
    await stop(server);
    return {
      projects,
      tasks,
      seedSeconds: seeded.seconds,
      via,
      measurements,
      model,
      ...(freshness && { freshness }),
      ...(writer && { writer }),
      serverLog: server.output(),
    };
  } finally {
    await handle.close();
    await database.drop();
    databases.delete(database);
  }
}
