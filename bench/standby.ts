import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createCluster, findPostgres } from '../apps/server/test/private-cluster.ts';
import { connect } from '../packages/db/src/index.ts';
import { measure } from './measure.ts';
import { type Child, ROOT, startChild } from './processes.ts';
import type { Scenario } from './scenario.ts';

/*
 * `pnpm bench -- --scenarios standby` (docs/operating.md#standbys): a private primary and a hot
 * standby of it (as apps/server/test/standby-cluster.ts makes them), a process that reads from the
 * primary and one that reads from the standby, side by side on the same data: GET by slug and a
 * search on each, then the standby's process again while a writer upserts on the primary.
 * Printed as a Markdown table; bench/LAST-RUN.md keeps the runs.
 */

const SERVER = join(ROOT, 'apps/server/src/main.ts');

export interface StandbyBenchOptions {
  projects: number;
  duration: number;
  warmup: number;
  connections: number;
  /** Projects per second the writer upserts on the primary during the last measurement. */
  writesPerSecond: number;
  children: Set<Child>;
}

export async function runStandbyBench(options: StandbyBenchOptions): Promise<string> {
  const tools = findPostgres();
  if ('reason' in tools) throw new Error(`the standby bench needs its own PostgreSQL: ${tools.reason}`);
  const primary = await createCluster(tools, { settings: ['shared_buffers=256MB'] });
  let standby: Awaited<ReturnType<typeof createCluster>> | undefined;
  try {
    await primary.start();
    const admin = await connect(primary.url('x'), { poolSize: 1 });
    await admin.pool.query('create database directory');
    await admin.close();
    standby = await createCluster(tools, {
      standbyOf: primary,
      settings: ['shared_buffers=256MB', 'hot_standby_feedback=on'],
    });
    await standby.start();
    const key = `bench-${randomBytes(8).toString('hex')}`;
    const env = { DATABASE_URL: primary.url('x', 'directory'), WEBHOOK_API_KEY: key, LOG_LEVEL: 'warn' };
    const onPrimary = await startChild('on-primary', SERVER, env, { readyTimeoutSeconds: 600 });
    options.children.add(onPrimary);
    const slugs = await seed(onPrimary.url, key, options.projects);
    const onStandby = await startChild(
      'on-standby',
      SERVER,
      { ...env, DATABASE_READ_URL: standby.url('x', 'directory') },
      { readyTimeoutSeconds: 600 },
    );
    options.children.add(onStandby);
    const from = (
      (await (await fetch(`${onStandby.url}/healthz?verbose=1`)).json()) as { reads: { from: string } }
    ).reads.from;
    if (from !== 'standby 1') throw new Error(`the standby's process reads from ${from}`);

    const scenarios: Scenario[] = [
      {
        key: 'standby-get',
        label: 'GET /api/projects/{slug} (200 slugs in turn)',
        target: 'server',
        connections: options.connections,
        requests: () =>
          slugs.slice(0, 200).map((s) => ({ method: 'GET' as const, path: `/api/projects/${s}` })),
      },
      {
        key: 'standby-search',
        label: 'GET /api/projects?q=项目&limit=20',
        target: 'server',
        connections: options.connections,
        requests: () => [{ method: 'GET', path: `/api/projects?q=${encodeURIComponent('项目')}&limit=20` }],
      },
    ];
    const rows: string[] = [
      '| Read | Process on the primary (req/s) | Process on the standby (req/s) | Standby / primary | Standby with writes (req/s) | With writes / without |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const scenario of scenarios) {
      const p = await measure(scenario, onPrimary, options);
      const s = await measure(scenario, onStandby, options);
      const stop = writer(onPrimary.url, key, options.writesPerSecond);
      const w = await measure(scenario, onStandby, options);
      const written = await stop();
      const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
      rows.push(
        `| ${scenario.label} | ${p.reqPerSec.toFixed(0)} | ${s.reqPerSec.toFixed(0)} | ${ratio(s.reqPerSec, p.reqPerSec)} | ${w.reqPerSec.toFixed(0)} (writer: ${written.toFixed(0)} projects/s) | ${ratio(w.reqPerSec, s.reqPerSec)} |`,
      );
      for (const m of [p, s, w])
        if (m.non2xx + m.errors > 0)
          rows.push(`| (${m.key}: ${m.non2xx} non-2xx, ${m.errors} errors) | | | | | |`);
    }
    await onStandby.stop();
    await onPrimary.stop();
    options.children.delete(onStandby);
    options.children.delete(onPrimary);
    return rows.join('\n');
  } finally {
    await standby?.destroy();
    await primary.destroy();
  }
}

/** Writes `n` projects through endpoint 1 in batches of 100; returns their slugs. */
async function seed(url: string, key: string, n: number): Promise<string[]> {
  const slugs: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) => project(i + j));
    slugs.push(...(await upsert(url, key, batch)));
  }
  return slugs;
}

async function upsert(url: string, key: string, projects: unknown[]): Promise<string[]> {
  const res = await fetch(`${url}/api/webhook/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ projects }),
  });
  const body = (await res.json()) as { results?: { slug: string }[] };
  if (!res.ok) throw new Error(`upsert: ${res.status}`);
  return (body.results ?? []).map((r) => r.slug);
}

const RUN = randomBytes(3).toString('hex');
function project(n: number, version = 0) {
  return {
    name: `基准项目 ${RUN} ${n}`,
    nameEn: `Standby Bench ${RUN} ${n}`,
    description: `A project of the standby bench, number ${n}, version ${version}.`,
    tags: [{ name: `标签${n % 50}` }],
    links: [{ type: 'CODEHOST', url: `https://github.com/bench-${RUN}/p${n}` }],
  };
}

/** Updates projects on the primary at about `perSecond` (batches of 10) until stopped; resolves to the rate reached. */
function writer(url: string, key: string, perSecond: number): () => Promise<number> {
  let stop = false;
  let written = 0;
  const started = performance.now();
  const loop = (async () => {
    let v = 1;
    while (!stop) {
      const t = performance.now();
      await upsert(
        url,
        key,
        Array.from({ length: 10 }, (_, j) => project((v * 10 + j) % 1000, v)),
      ).catch(() => []);
      written += 10;
      v++;
      const wait = (10 / perSecond) * 1000 - (performance.now() - t);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return async () => {
    stop = true;
    await loop;
    return written / ((performance.now() - started) / 1000);
  };
}
