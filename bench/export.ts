import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { newProject } from './data.ts';
import { type Child, createDatabase, type Database, memoryOf, ROOT, startChild } from './processes.ts';
import { seedProjects } from './seed.ts';

/*
 * `pnpm bench -- --scenarios export` (docs/api.md#export-get-apiexport): a server on a database of
 * `projects` projects (PostgreSQL, and the embedded PGlite), then GET /api/export read as fast as
 * the client can: projects/s, the bytes, the server process's resident memory added while it
 * exports (its peak during the export minus its resident memory before), and the p99 of other
 * requests while it streams (GET by slug on 4 connections, and single-project upserts one at a
 * time) against the same requests without an export. Printed as a Markdown table.
 */

const SERVER = join(ROOT, 'apps/server/src/main.ts');

export interface ExportBenchOptions {
  adminUrl: string;
  apiKey: string;
  projects: number;
  track(x: Child | Database): void;
}

interface Row {
  database: string;
  projects: number;
  seconds: number;
  bytes: number;
  memoryAddedMiB: number;
  readP99: { alone: number; during: number };
  writeP99: { alone: number; during: number };
}

const p99 = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
};

/** Other requests while `during` runs: reads by slug (autocannon) and upserts one at a time. */
async function otherRequests(url: string, apiKey: string, slugs: string[], during: () => Promise<void>) {
  const reads: number[] = [];
  const writes: number[] = [];
  let n = 0;
  const instance = autocannon({
    url,
    connections: 4,
    duration: 600,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          req.path = `/api/projects/${encodeURIComponent(slugs[n++ % slugs.length]!)}`;
          return req;
        },
      },
    ],
  });
  instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => reads.push(ms));
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const started = performance.now();
      await fetch(`${url}/api/webhook/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ projects: [newProject('export-bench', i % 50)] }),
      }).then((r) => r.arrayBuffer());
      writes.push(performance.now() - started);
    }
  })();
  try {
    await during();
  } finally {
    stop = true;
    instance.stop();
    await instance;
    await writer;
  }
  return { readP99: p99(reads), writeP99: p99(writes) };
}

async function measureOne(database: string, url: string, options: ExportBenchOptions): Promise<Row> {
  const setup = await connect(url, { poolSize: 2 });
  let slugs: string[];
  try {
    await migrateToLatest(setup.db);
    slugs = (await seedProjects(setup.pool, options.projects)).slugs;
  } finally {
    await setup.close();
  }
  const server = await startChild(`export-${database}`, SERVER, {
    DATABASE_URL: url,
    WEBHOOK_API_KEY: options.apiKey,
    LOG_LEVEL: 'warn',
  });
  options.track(server);
  try {
    const alone = await otherRequests(
      server.url,
      options.apiKey,
      slugs,
      () => new Promise((r) => setTimeout(r, 3_000)),
    );
    const before = memoryOf(server.pid)?.rss ?? 0;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryOf(server.pid)?.rss ?? 0);
    }, 20);
    let bytes = 0;
    let lines = 0;
    let seconds = 0;
    const during = await otherRequests(server.url, options.apiKey, slugs, async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/export`, { headers: { 'x-api-key': options.apiKey } });
      if (!res.ok || !res.body)
        throw new Error(`GET /api/export answered ${res.status}: ${await res.text()}`);
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      seconds = (performance.now() - started) / 1000;
    });
    clearInterval(sampler);
    if (lines < options.projects + 1)
      throw new Error(`the export had ${lines} lines for ${options.projects} projects`);
    return {
      database,
      projects: lines - 1,
      seconds,
      bytes,
      memoryAddedMiB: (peak - before) / 2 ** 20,
      readP99: { alone: alone.readP99, during: during.readP99 },
      writeP99: { alone: alone.writeP99, during: during.writeP99 },
    };
  } finally {
    await server.stop();
  }
}

export async function runExportBench(options: ExportBenchOptions): Promise<string> {
  const rows: Row[] = [];
  const database = await createDatabase(options.adminUrl, 'export');
  options.track(database);
  rows.push(await measureOne('PostgreSQL', database.url, options));
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    rows.push(await measureOne('PGlite', `pglite:${dir}`, options));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));
  return [
    '| database | projects | seconds | projects/s | MB sent | server memory added (MiB) | GET by slug p99 ms (alone → during) | upsert p99 ms (alone → during) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.projects.toLocaleString('en-US')} | ${r.seconds.toFixed(2)} | ${Math.round(r.projects / r.seconds).toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(1)} | ${r.memoryAddedMiB.toFixed(1)} | ${ms(r.readP99.alone)} → ${ms(r.readP99.during)} | ${ms(r.writeP99.alone)} → ${ms(r.writeP99.during)} |`,
    ),
  ].join('\n');
}
