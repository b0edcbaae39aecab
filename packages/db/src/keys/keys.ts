import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/** A named key as stored: never the key, its SHA-256 only. */
export interface KeyRow {
  id: string;
  name: string;
  start: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
  /** The first key of its chain of rotations (its own id when it was not made by one). */
  lineage: string;
}

export interface NewKey {
  id: string;
  name: string;
  hash: string;
  start: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  rateLimit: { requests: number; windowSeconds: number } | null;
  admin?: boolean;
  /** A rotation's new key: the lineage of the key it replaces (the rate limit counts them as one). */
  lineage?: string;
}

const COLUMNS = sql.raw(
  'id, name, start, scopes, created_at, expires_at, revoked_at, last_used_at, rate_limit_requests, rate_limit_window_seconds, coalesce(lineage, id) as lineage',
);

export async function insertKey(db: Db, key: NewKey): Promise<KeyRow> {
  const { rows } = await sql<KeyRow>`
    insert into api_keys (id, name, hash, start, scopes, expires_at, rate_limit_requests, rate_limit_window_seconds, admin, lineage)
    values (${key.id}, ${key.name}, ${key.hash}, ${key.start}, ${[...key.scopes]}::text[], ${key.expiresAt},
      ${key.rateLimit?.requests ?? null}, ${key.rateLimit?.windowSeconds ?? null}, ${key.admin ?? false},
      ${key.lineage ?? null})
    returning ${COLUMNS}
  `.execute(db);
  return rows[0] as KeyRow;
}

/**
 * The key with this hash, by the unique index: who it is, and for how many more milliseconds
 * it is valid by the database's clock (null: no end; 0 or less: expired or revoked), so that a
 * process whose clock differs still ends it on time.
 */
export async function findKeyByHash(
  db: Db,
  hash: string,
): Promise<(KeyRow & { valid_ms: number | null }) | undefined> {
  const { rows } = await sql<KeyRow & { valid_ms: string | null }>`
    select ${COLUMNS},
      (extract(epoch from (least(revoked_at, expires_at) - now())) * 1000)::float8 as valid_ms
    from api_keys where hash = ${hash}
  `.execute(db);
  const row = rows[0];
  return row && { ...row, valid_ms: row.valid_ms === null ? null : Number(row.valid_ms) };
}

export async function findKeyById(db: Db, id: string): Promise<KeyRow | undefined> {
  const { rows } = await sql<KeyRow>`select ${COLUMNS} from api_keys where id = ${id}`.execute(db);
  return rows[0];
}

/**
 * A page of keys, newest first, after the keyset position `after` when given. `created_key` is
 * the exact creation time (microseconds) as text, for the next page's position.
 */
export async function listKeys(
  db: Db,
  options: { after?: { createdKey: string; id: string } | undefined; limit: number },
): Promise<(KeyRow & { created_key: string })[]> {
  const { after } = options;
  const { rows } = await sql<KeyRow & { created_key: string }>`
    select ${COLUMNS}, created_at::text as created_key from api_keys
    ${after ? sql`where (created_at, id) < (${after.createdKey}::timestamptz, ${after.id})` : sql``}
    order by created_at desc, id desc limit ${options.limit}
  `.execute(db);
  return rows;
}

/**
 * Ends a key at `now() + graceSeconds` (0: now), unless it already ends sooner. Returns the
 * key, or undefined when there is none with that id. `revoked` tells whether it had already
 * ended before this call.
 */
export async function endKey(
  db: Db,
  id: string,
  graceSeconds: number,
): Promise<{ row: KeyRow; alreadyEnded: boolean } | undefined> {
  const { rows } = await sql<KeyRow & { already_ended: boolean }>`
    with old as (
      select id, (revoked_at is not null and revoked_at <= now()) as already_ended
      from api_keys where id = ${id} for update
    )
    update api_keys k set revoked_at = case
        when k.revoked_at is not null and k.revoked_at <= now() + make_interval(secs => ${graceSeconds})
          then k.revoked_at
        else now() + make_interval(secs => ${graceSeconds})
      end
    from old where k.id = old.id
    returning k.id, k.name, k.start, k.scopes, k.created_at, k.expires_at, k.revoked_at, k.last_used_at,
      k.rate_limit_requests, k.rate_limit_window_seconds, old.already_ended
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { already_ended, ...key } = row;
  return { row: key, alreadyEnded: already_ended };
}

/** Records use of these keys now (one statement for all of them). */
export async function touchKeys(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update api_keys set last_used_at = now() where id = any(${[...ids]}::text[])`.execute(db);
}

// Any fixed number: it names the lock under which a process looks for, or creates, the admin key.
const ADMIN_KEY_LOCK = 727_274_009;

/**
 * docs/keys-and-limits.md#the-bootstrap-key: when there is no valid key with keys:admin, inserts `key`
 * (made by the caller) and returns true; else false. Under a transaction-scoped advisory lock, so that of
 * processes starting at once exactly one creates it and the others see it.
 */
export async function ensureAdminKey(db: Db, key: NewKey): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ADMIN_KEY_LOCK})`.execute(trx);
    const { rows } = await sql<{ found: boolean }>`
      select exists (
        select 1 from api_keys where 'keys:admin' = any(scopes)
          and (revoked_at is null or revoked_at > now()) and (expires_at is null or expires_at > now())
      ) as found
    `.execute(trx);
    if (rows[0]?.found) return false;
    await insertKey(trx, { ...key, admin: true });
    return true;
  });
}

/** A secret every process of the deployment shares: made by the first to ask, read by the others. */
export async function sharedSecret(db: Db, name: string, made: string): Promise<string> {
  await sql`insert into server_secrets (name, value) values (${name}, ${made}) on conflict (name) do nothing`.execute(
    db,
  );
  const { rows } = await sql<{
    value: string;
  }>`select value from server_secrets where name = ${name}`.execute(db);
  return (rows[0] as { value: string }).value;
}
