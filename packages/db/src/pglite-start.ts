import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/*
 * The embedded database's memory (docs/operating.md#sizing). PGlite is PostgreSQL compiled to
 * WebAssembly, and a WebAssembly memory only grows: what the database once needed stays
 * resident for the life of the process.
 *
 * - shared_buffers: PostgreSQL's default (128 MB) is sized for a server with the machine to
 *   itself; the embedded database's files sit in the operating system's page cache anyway, so a
 *   smaller pool costs a copy from that cache, not a disk read. 32 MB halves what an idle
 *   embedded server holds.
 * - initdb: making a new data directory grows the memory to ~600 MB, never given back. A new
 *   directory is therefore made by a short-lived child process, and the server opens the made
 *   directory in a memory of its own: a server's first start holds what its later starts hold.
 */

/** The PostgreSQL settings the embedded database starts with: PGlite's own, and the pool above. */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
];

/** Whether `dir` holds a database already (PostgreSQL's PG_VERSION file). */
export const hasDatabase = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

/** How long the child may take to make a directory (initdb takes seconds). */
const INIT_TIMEOUT_MS = 120_000;

/**
 * Makes the database of a new directory in a child process, then returns; a directory that
 * holds one already is left alone. The child is plain Node running PGlite's CommonJS build,
 * so it needs neither a build step nor a loader.
 */
export async function makeDatabaseApart(dir: string): Promise<void> {
  if (hasDatabase(dir)) return;
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const code = `require(process.argv[1]).PGlite.create(process.argv[2], { startParams: JSON.parse(process.argv[3]) })
    .then((db) => db.close())
    .then(() => process.exit(0), (err) => { console.error(err && err.message); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', code, pglite, dir, JSON.stringify(PGLITE_START_PARAMS)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 2_000) stderr += d.toString();
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('making the embedded database took longer than 120 s'));
    }, INIT_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  if (exitCode !== 0)
    throw new Error(`cannot make the embedded database: ${stderr.trim() || `exit ${exitCode}`}`);
}
