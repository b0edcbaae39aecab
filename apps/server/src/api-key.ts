import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createAdminKeyIfNone } from '@directory/core/server';
import { type Database, type Kysely, parseDatabaseUrl, sharedSecret } from '@directory/db';

/** The file, in an embedded database's data directory, that keeps its generated API key. */
export const KEY_FILE = 'api-key';

export type KeySource =
  | { kind: 'configured' }
  /** Made now and written to `file` (mode 0600). */
  | { kind: 'created'; file: string }
  /** Read from `file`, made by an earlier start. */
  | { kind: 'stored'; file: string }
  /** Made for this run only (memory:). */
  | { kind: 'ephemeral' }
  /** PostgreSQL without WEBHOOK_API_KEY: the named keys in the database, `admin` made now when given. */
  | { kind: 'database'; admin?: string };

/** The keys of a server process: its bootstrap key, if any, and the secret that signs cursors. */
export interface ResolvedKeys {
  /** WEBHOOK_API_KEY, or the key generated for an embedded database; none on PostgreSQL without one. */
  key: string | undefined;
  secret: string;
  source: KeySource;
}

/**
 * One key for every process (docs/keys-and-limits.md#the-bootstrap-key): on PostgreSQL without
 * WEBHOOK_API_KEY no process invents a key of its own. The first to start with no valid key with
 * keys:admin in the database creates one named `admin` with every scope (under a lock: processes starting
 * at once agree on one) and prints it once; the others, and every restart, use the database's keys.
 * Elsewhere, as resolveApiKey. The secret that signs cursors is random, made once in the database
 * (PostgreSQL or the embedded one) and shared by every process, never derived from a key: a cursor
 * anyone can read says nothing of WEBHOOK_API_KEY (docs/decisions.md#request-handling).
 */
export async function resolveKeys(
  configured: string | undefined,
  databaseUrl: string,
  db: Kysely<Database>,
): Promise<ResolvedKeys> {
  const secret = await sharedSecret(db, 'cursor-secret', randomBytes(32).toString('base64url'));
  if (configured || parseDatabaseUrl(databaseUrl).kind !== 'postgres') {
    const { key, source } = resolveApiKey(configured, databaseUrl);
    return { key, secret, source };
  }
  const admin = await createAdminKeyIfNone(db);
  return { key: undefined, secret, source: admin ? { kind: 'database', admin } : { kind: 'database' } };
}

const newKey = () => randomBytes(24).toString('base64url');

/**
 * The API key of this run. A configured WEBHOOK_API_KEY always wins and is never written
 * anywhere. Without one, an embedded database kept in a directory (`pglite:<dir>`, the default)
 * keeps one generated key in `<dir>/api-key`, readable by its owner only, so that the key stays
 * the same across restarts; `memory:` gets a key for this run. Call it while
 * holding the directory (after connect()), so that two processes cannot both create the file.
 */
export function resolveApiKey(
  configured: string | undefined,
  databaseUrl: string,
): { key: string; source: KeySource } {
  if (configured) return { key: configured, source: { kind: 'configured' } };
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind !== 'pglite') return { key: newKey(), source: { kind: 'ephemeral' } };
  // unreachable for postgres (resolveKeys), kept total for tools
  const file = join(target.dir, KEY_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return { key: stored, source: { kind: 'stored', file } };
    throw new Error(`${file} is empty: delete it to have a new key made, or set WEBHOOK_API_KEY`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = newKey();
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  return { key, source: { kind: 'created', file } };
}
