import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadModel } from '@directory/core/server';
import { connect, type DatabaseHandle, migrateToLatest } from '@directory/db';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, createApp, createHttpServer, type HttpTimeouts, readModelOf } from '../src/app.ts';
import { ChangeSignal } from '../src/changes/signal.ts';
import { createLogger } from '../src/logger.ts';

/**
 * The databases every integration test runs against: embedded PGlite always, and a real
 * PostgreSQL server when TEST_DATABASE_URL is set (each test file gets a fresh database).
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL;
export const targets: { name: string; postgres: boolean }[] = [
  { name: 'pglite', postgres: false },
  ...(POSTGRES_URL ? [{ name: 'postgres', postgres: true }] : []),
];

export interface Reply<T = any> {
  status: number;
  json: T;
  text: string;
  headers: Headers;
}

export interface Client {
  baseUrl: string;
  key: string;
  /** `key: false` sends no key; a string sends that one in the header. */
  call<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; key?: string | false; headers?: Record<string, string> },
  ): Promise<Reply<T>>;
}

export function client(baseUrl: string, key: string): Client {
  return {
    baseUrl,
    key,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const k = options.key === undefined ? key : options.key;
      if (k !== false) headers['x-api-key'] = k;
      let body: string | undefined;
      if (options.raw !== undefined || options.body !== undefined) {
        body = options.raw ?? JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      // redirect: manual: a test sees the 301 of an alias itself, not where it leads
      const res = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      let json: any;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, json, text, headers: res.headers };
    },
  };
}

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server; dropped by `drop`. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `directory_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A database for server processes of `target`, empty: a fresh PostgreSQL database, or a PGlite
 * directory of its own; `cleanups` gets what drops or removes it after the test.
 */
export async function databaseFor(
  target: { postgres: boolean },
  cleanups: (() => Promise<unknown> | unknown)[],
  prefix = 'directory-test-',
): Promise<string> {
  if (target.postgres) {
    const fresh = await freshPostgresDatabase();
    cleanups.push(fresh.drop);
    return fresh.url;
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return `pglite:${dir}`;
}

export interface TestServer extends Client {
  db: DatabaseHandle;
  databaseUrl: string;
  /** The server's read model (to look at what runs in its turns). */
  readModel: ReadModel;
  close(): Promise<void>;
}

/** The app on a fresh database (in-memory PGlite, or a new PostgreSQL database), listening on a free port. */
export async function startServer(
  target: { postgres: boolean },
  options: Partial<AppOptions> & { timeouts?: HttpTimeouts } = {},
): Promise<TestServer> {
  const fresh = target.postgres ? await freshPostgresDatabase() : undefined;
  const databaseUrl = fresh?.url ?? 'memory:';
  const db = await connect(databaseUrl, { poolSize: 5 });
  await migrateToLatest(db.db);
  const key = `test-key-${randomBytes(8).toString('hex')}`;
  // Long-polls of GET /api/changes wake on the database's notifications, as in main.ts.
  const feed = new ChangeSignal();
  await feed.listen(db);
  const app = createApp({
    feed,
    db: db.db,
    pool: db.pool,
    apiKey: key,
    // on PostgreSQL the rate-limit counts are shared, as main.ts does
    rateLimitPool: target.postgres ? db.pool : undefined,
    logger: createLogger('silent'),
    bodyLimitBytes: 5 * 1024 * 1024,
    ...options,
  });
  const model = readModelOf(app);
  await model.start();
  const server = createHttpServer(app, options.timeouts).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    ...client(`http://127.0.0.1:${port}`, key),
    db,
    databaseUrl,
    readModel: model,
    async close() {
      await feed.stop();
      await model.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      await fresh?.drop();
    },
  };
}

/**
 * The server of a describe block: started (by `startServer`) in its beforeAll, closed in its afterAll.
 * The returned handle stands for that server once beforeAll has run; using it before throws.
 * Set-up of one's own (seeding) goes in a beforeAll registered after this call: hooks run in order.
 */
export function useServer(
  target: { postgres: boolean },
  options: Partial<AppOptions> & { timeouts?: HttpTimeouts } = {},
  timeoutMs?: number,
): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(target, options);
  }, timeoutMs);
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as TestServer, {
    get(_, property) {
      if (!server) throw new Error('useServer: the server is used before its beforeAll has run');
      return Reflect.get(server, property);
    },
  });
}

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface ServerProcess extends Client {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The real server as its own process (`node --import tsx src/main.ts`), started as the README says. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // 'exit' can come before the last lines are read from the pipes (which several processes may
  // share, under WEB_CONCURRENCY): output() after stop() waits for them to close, a while at most.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const onData = () => {
      const m = out.match(/"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/);
      if (m?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    ...client(url, env.WEBHOOK_API_KEY ?? ''),
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const code = await exited;
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      return code;
    },
  };
}

let seq = 0;
const RUN = randomBytes(3).toString('hex');

/** A unique, valid ProjectInput; override any field. */
export function project(over: Record<string, unknown> = {}) {
  const n = ++seq;
  return {
    name: `测试项目 ${RUN} ${n}`,
    nameEn: `Test Project ${RUN} ${n}`,
    description: `A test project number ${n}.`,
    tags: [{ name: `tag-${RUN}`, nameEn: `Tag ${RUN}` }],
    links: [
      { type: 'CODEHOST', url: `https://github.com/t-${RUN}/p${n}` },
      { type: 'WEBSITE', url: `https://p${n}.t-${RUN}.example.org/` },
    ],
    ...over,
  };
}

export const slugOf = (p: { nameEn?: string }) => (p.nameEn ?? '').toLowerCase().replace(/\s+/g, '-');
export const uniqueUrl = (what = 'u') => `https://example.org/${RUN}/${what}/${++seq}`;
