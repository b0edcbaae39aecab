import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.ts';
import { makeDatabaseApart, PGLITE_START_PARAMS } from './pglite-start.ts';
import { preparingPool } from './prepared-pool.ts';
import type { Database } from './tables.ts';

export const DEFAULT_DATABASE_URL = 'pglite:./data';

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dir: string }
  | { kind: 'memory' };

/** Reads a DATABASE_URL: `postgres://…`/`postgresql://…`, `pglite:<dir>` or `memory:`. */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  if (url === 'memory:' || url === 'memory://') return { kind: 'memory' };
  if (url.startsWith('pglite:')) {
    const dir = url.slice('pglite:'.length).replace(/^\/\/(?=\/)/, '');
    if (dir) return { kind: 'pglite', dir: resolve(dir) };
  }
  throw new Error(
    `DATABASE_URL must be postgres://…, postgresql://…, pglite:<dir> or memory: (got "${redact(url)}")`,
  );
}

/**
 * A connection string with every password blanked, safe to print or show (the one redaction of
 * docs/operating.md#configuration): the password of the user info, whatever it holds (`@`, `:`
 * or `/` included: the user info runs to the last `@`, as URL parsers read it), and the value of
 * every query parameter whose name has `password` in it (`password`, `sslpassword`).
 */
export function redact(url: string): string {
  let out = url.replace(/^([^:/?#]*:\/\/)(.*)@/, (_, scheme: string, info: string) => {
    const colon = info.indexOf(':');
    return `${scheme}${colon < 0 ? info : `${info.slice(0, colon)}:***`}@`;
  });
  out = out.replace(/([?&][^=&#]*password[^=&#]*=)[^&#]*/gi, '$1***');
  return out;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  target: DatabaseTarget;
  /** Connections in use and idle, for health and metrics. */
  pool: pg.Pool;
  /** The embedded database itself (pglite: and memory:), for what only its own API does (COPY to a blob). */
  embedded?: PGlite;
  /**
   * Calls `onNotify` on every NOTIFY on `channel` (committed notifications only), and once more
   * after the listening connection was re-established (notifications may have been missed).
   * PostgreSQL: one dedicated connection per call, outside the pool; PGlite: its own listener.
   * Returns a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Pool size for PostgreSQL; PGlite always has exactly one connection. */
  poolSize?: number;
  /** PostgreSQL: how long a request waits for a connection (opening one, or a free one) before failing; 0 waits forever. */
  connectTimeoutMs?: number;
  /** PostgreSQL: the server-side statement_timeout of every connection; 0 is none. */
  statementTimeoutMs?: number;
}

const oneConnection = new WeakSet<Kysely<Database>>();

/**
 * Whether `db` is PGlite's one connection (every query waits its turn): a long transaction
 * there holds up every other query (docs/decisions.md#exports-on-pglite).
 */
export const hasOneConnection = (db: Kysely<Database>): boolean => oneConnection.has(db);

// node-postgres parses int8 (count(*), sums) as strings by default; every count here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/**
 * Opens the database behind a DATABASE_URL. All three kinds go through pg.Pool and Kysely's
 * PostgresDialect, so the same SQL and the same driver code run on PGlite and on PostgreSQL.
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<DatabaseHandle> {
  const target = parseDatabaseUrl(url);
  let pool: pg.Pool;
  let release = async () => {};
  // the embedded database's directory made its owner's only again as it closes
  let ownerOnlyAgain = () => {};
  let listen: DatabaseHandle['listen'];
  let embedded: PGlite | undefined;
  if (target.kind === 'postgres') {
    const url = target.url;
    listen = (channel, onNotify) => listenOnPostgres(url, channel, onNotify);
    pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      // JIT compiles a plan when its estimated cost is high (search and facet aggregates over
      // many rows); for these short queries the compile time (tens of ms) exceeds the gain.
      options: '-c jit=off',
    });
  } else {
    let lock: DirectoryLock | undefined;
    let lite: PGlite;
    if (target.kind === 'pglite') {
      mkdirSync(target.dir, { recursive: true, mode: 0o700 });
      lock = acquireDirectoryLock(target.dir);
      // The database's files (its WAL holds webhook secrets; docs/keys-and-limits.md#files) are its
      // owner's only, whatever the umask. PGlite sets the modes of the files it writes itself (0666), so
      // the tree is made so after it opens and again when it closes; the directories are 0700 from
      // the start, so no other user can reach a file inside in between, whatever its mode.
      ownerOnly(target.dir);
      const dir = target.dir;
      ownerOnlyAgain = () => ownerOnly(dir);
      try {
        await makeDatabaseApart(target.dir);
        lite = await PGlite.create(target.dir, { startParams: [...PGLITE_START_PARAMS] });
        ownerOnly(target.dir);
      } catch (err) {
        lock.release();
        throw err;
      }
    } else {
      lite = await PGlite.create({ startParams: [...PGLITE_START_PARAMS] });
    }
    // PGlite is one single-user backend: one connection, and the pool queues everything else.
    pool = new pg.Pool({ ...createPgConfig(lite), max: 1 });
    const own = lite;
    embedded = own;
    listen = async (channel, onNotify) => {
      const stop = await own.listen(checkedChannel(channel), () => onNotify());
      return async () => {
        if (!own.closed) await stop();
      };
    };
    release = async () => {
      await lite.close();
      lock?.release();
      ownerOnlyAgain();
    };
  }
  // A connection that breaks (server restart, network) must not crash the process. pg emits
  // 'error' on the pool for an idle connection, and on the connection itself when it is
  // checked out, where nobody else listens; the query in flight fails on its own, and the
  // pool drops the broken connection when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  if (target.kind !== 'postgres') oneConnection.add(db);
  return {
    db,
    target,
    pool,
    ...(embedded ? { embedded } : {}),
    listen,
    async close() {
      await db.destroy();
      await release();
    },
  };
}

function checkedChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  return channel;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other requests, and a
 * pool may close it when idle). A broken connection is reopened after a second, and
 * `onNotify` is called then, since notifications sent meanwhile are lost.
 */
async function listenOnPostgres(url: string, channel: string, onNotify: () => void) {
  const name = checkedChannel(channel);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {});
    c.on('notification', (msg) => {
      if (msg.channel === name) onNotify();
    });
    c.on('end', () => {
      if (stopped || client !== c) return;
      client = undefined;
      retry = setTimeout(() => void reopen(), 1_000);
    });
    await c.connect();
    await c.query(`listen ${name}`);
    client = c;
  };
  const reopen = async () => {
    try {
      await open();
      onNotify();
    } catch {
      if (!stopped) retry = setTimeout(() => void reopen(), 1_000);
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** Makes a directory tree its owner's only: directories 0700, files 0600 (symbolic links left alone). */
export function ownerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ownerOnly(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}
