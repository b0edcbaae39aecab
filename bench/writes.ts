import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../packages/db/src/index.ts';
import { newProject, seededProject } from './data.ts';
import { ensureCheckout, type Freshness, measureFreshness } from './model.ts';
import { type Child, createDatabase, type Database, ROOT, startChild } from './processes.ts';
import { seedProjects } from './seed.ts';

// `pnpm bench --scenarios writes`: endpoint 1 at 100,000 projects, 4 clients each
// sending batches of 100 one after the other, on PostgreSQL and on PGlite: new projects,
// updates (every project changed), updates that change nothing, and the first two again with a
// webhook subscribed (delivered by the server's dispatcher to a receiver in this process). The
// server of `before` (the commit before the issue's work) and this checkout's run the same
// phases side by side, each phase on one then the other, so that other work on the machine
// weighs on both alike; ratios are after ÷ before. On PostgreSQL, a second server process
// takes single writes and this one is polled until its search finds them (freshness).

export interface PhaseFigures {
  phase: string;
  /** Projects written per second, by side. */
  before: number;
  after: number;
}

export interface BackendResult {
  backend: 'PostgreSQL' | 'PGlite';
  projects: number;
  phases: PhaseFigures[];
  freshness?: { before: Freshness; after: Freshness } | undefined;
}

export interface WritesResult {
  commit: string;
  batches: number;
  clients: number;
  backends: BackendResult[];
}

const PHASES = [
  'new',
  'updates',
  'unchanged',
  'new, webhook subscribed',
  'updates, webhook subscribed',
] as const;
type Phase = (typeof PHASES)[number];

interface Side {
  label: 'before' | 'after';
  root: string;
  server: Child;
  env: Record<string, string>;
  fresh: number;
}

/** `batches` batches of 100 projects from `make(batch)`, on `clients` connections; projects/s. */
async function send(
  url: string,
  apiKey: string,
  batches: number,
  clients: number,
  make: (batch: number) => unknown[],
): Promise<number> {
  let next = 0;
  let items = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < batches) {
      const b = next++;
      const projects = make(b);
      const res = await fetch(`${url}/api/webhook/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ projects }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`batch ${b}: ${res.status} ${text.slice(0, 300)}`);
      const reply = JSON.parse(text) as { created: number; updated: number; failed: number };
      if (reply.failed > 0) throw new Error(`batch ${b}: ${text.slice(0, 300)}`);
      items += reply.created + reply.updated;
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return items / ((performance.now() - started) / 1000);
}

/** A webhook receiver in this process (answers 200 to every POST). */
async function receiver(): Promise<{ url: string; server: Server; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, server, received: () => received };
}

export async function runWritesBench(options: {
  adminUrl: string;
  apiKey: string;
  commit: string;
  beforeRoot: string;
  projects: number;
  batches: number;
  clients: number;
  dbPoolSize: number;
  freshnessSamples: number;
  backends: ('PostgreSQL' | 'PGlite')[];
  track(x: Child | Database): void;
  untrack(x: Child | Database): void;
}): Promise<WritesResult> {
  ensureCheckout(options.commit, options.beforeRoot);
  const hook = await receiver();
  const result: WritesResult = {
    commit: options.commit,
    batches: options.batches,
    clients: options.clients,
    backends: [],
  };
  try {
    for (const backend of options.backends) {
      console.log(
        `\n== writes through endpoint 1 on ${backend}, ${options.projects.toLocaleString('en-US')} projects`,
      );
      result.backends.push(await runBackend(backend, options, hook.url));
    }
  } finally {
    hook.server.close();
  }
  return result;
}

async function runBackend(
  backend: 'PostgreSQL' | 'PGlite',
  options: Parameters<typeof runWritesBench>[0],
  hookUrl: string,
): Promise<BackendResult> {
  const sides: Side[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  try {
    for (const [label, root] of [
      ['before', options.beforeRoot],
      ['after', ROOT],
    ] as const) {
      let databaseUrl: string;
      if (backend === 'PostgreSQL') {
        const database = await createDatabase(options.adminUrl, `writes_${label}`);
        options.track(database);
        cleanups.push(async () => {
          await database.drop();
          options.untrack(database);
        });
        databaseUrl = database.url;
      } else {
        const dir = mkdtempSync(join(tmpdir(), `bench-writes-${label}-`));
        cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
        databaseUrl = `pglite:${dir}`;
      }
      const env = {
        DATABASE_URL: databaseUrl,
        WEBHOOK_API_KEY: options.apiKey,
        LOG_LEVEL: 'warn',
        DB_POOL_SIZE: String(options.dbPoolSize),
        WEBHOOK_ALLOW_PRIVATE: 'true',
      };
      const script = join(root, 'apps/server/src/main.ts');
      // The side's own migrations make the schema; the projects go straight into the tables.
      const migrator = await startChild(`migrate-${label}`, script, env, { root });
      await migrator.stop();
      const started = performance.now();
      const handle = await connect(databaseUrl, { poolSize: 3 });
      try {
        await seedProjects(handle.pool, options.projects);
        await handle.pool.query(backend === 'PostgreSQL' ? 'vacuum analyze' : 'analyze');
      } finally {
        await handle.close();
      }
      console.log(`  ${label}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const server = await startChild(`server-${label}`, script, env, { root, readyTimeoutSeconds: 600 });
      options.track(server);
      cleanups.push(async () => {
        await server.stop();
        options.untrack(server);
      });
      sides.push({ label, root, server, env, fresh: 0 });
    }

    const { batches, clients, apiKey } = options;
    const tag = randomBytes(3).toString('hex');
    const batchesOf = (phase: Phase, side: Side): ((b: number) => unknown[]) => {
      switch (phase) {
        case 'new':
        case 'new, webhook subscribed':
          return () => Array.from({ length: 100 }, () => newProject(`${tag}${side.label}`, side.fresh++));
        case 'updates':
        case 'unchanged':
          // the same revision of the same projects twice: the second pass changes nothing
          return (b) => Array.from({ length: 100 }, (_, k) => seededProject(b * 100 + k, 1));
        case 'updates, webhook subscribed':
          return (b) => Array.from({ length: 100 }, (_, k) => seededProject(b * 100 + k, 2));
      }
    };
    const phases: PhaseFigures[] = [];
    for (const phase of PHASES) {
      if (phase === 'new, webhook subscribed')
        for (const side of sides) {
          const res = await fetch(`${side.server.url}/api/webhooks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            body: JSON.stringify({ url: hookUrl, events: ['*'] }),
          });
          if (!res.ok) throw new Error(`webhook: ${res.status} ${await res.text()}`);
        }
      const figures: Record<string, number> = {};
      for (const side of sides) {
        try {
          figures[side.label] = await send(side.server.url, apiKey, batches, clients, batchesOf(phase, side));
        } catch (err) {
          // say what the server said last (a crash, a warning), not only the client's error
          const cause = (err as { cause?: { code?: string; message?: string } }).cause;
          throw new Error(
            `${backend} ${phase}, ${side.label}: ${(err as Error).message}` +
              `${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}; the server's last output:\n` +
              side.server.output().slice(-3000),
            { cause: err },
          );
        }
        // the dispatcher's backlog is part of what the webhook costs: let it drain before the next
        await new Promise((r) => setTimeout(r, phase.includes('webhook') ? 2000 : 300));
      }
      const line = { phase, before: figures.before!, after: figures.after! };
      phases.push(line);
      console.log(
        `  ${phase}: before ${Math.round(line.before)}/s, after ${Math.round(line.after)}/s (×${(line.after / line.before).toFixed(2)})`,
      );
    }

    let freshness: BackendResult['freshness'];
    if (backend === 'PostgreSQL') {
      const measured: Partial<Record<'before' | 'after', Freshness>> = {};
      for (const side of sides) {
        const writer = await startChild(
          `writer-${side.label}`,
          join(side.root, 'apps/server/src/main.ts'),
          side.env,
          { root: side.root, readyTimeoutSeconds: 600 },
        );
        try {
          measured[side.label] = await measureFreshness(
            writer,
            side.server,
            apiKey,
            options.freshnessSamples,
          );
        } finally {
          await writer.stop();
        }
        console.log(
          `  freshness, ${side.label}: p50 ${measured[side.label]!.p50.toFixed(1)} ms, p99 ${measured[side.label]!.p99.toFixed(1)} ms`,
        );
      }
      freshness = { before: measured.before!, after: measured.after! };
    }
    return { backend, projects: options.projects, phases, freshness };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}
