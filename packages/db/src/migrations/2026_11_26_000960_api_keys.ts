import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// NAMED KEYS (docs/keys-and-limits.md#named-keys-and-scopes)
// api_keys holds every named key: never the key itself, only the hex SHA-256 of it (`hash`,
// unique: the one indexed lookup a request needs) and its first 12 characters (`start`, for
// display). A revoke sets revoked_at to now; a rotation sets the old key's revoked_at to the end
// of its grace period (a time in the future), so "still valid" is one comparison for both.
// `admin` is true only on a key a PostgreSQL deployment without WEBHOOK_API_KEY creates at start
// when it has no valid key with keys:admin (under an advisory lock: two processes starting at
// once agree on one key).
//
// RATE LIMITS
// rate_limits is rate-limiter-flexible's table (RateLimiterPostgres: key, points, expire in ms
// since the epoch), created here instead of by the library at run time.
//
// REVISIONS
// A revision made with a named key records it (key_id, key_name: the name as of the write).
//
// SECRETS
// server_secrets holds what every process of a deployment must share and no one configures:
// the secret that signs cursors when there is no WEBHOOK_API_KEY.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table api_keys (
      id text primary key,
      name text not null,
      hash text collate "C" not null unique,
      start text not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz,
      revoked_at timestamptz,
      last_used_at timestamptz,
      rate_limit_requests integer,
      rate_limit_window_seconds integer,
      admin boolean not null default false
    );
    -- GET /api/keys: newest first, keyset paged
    create index api_keys_created_idx on api_keys (created_at desc, id desc);

    create table rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    );

    alter table project_revisions add column key_id text, add column key_name text;

    create table server_secrets (
      name text primary key,
      value text not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table server_secrets;
    alter table project_revisions drop column key_id, drop column key_name;
    drop table rate_limits;
    drop table api_keys;
  `.execute(db);
}
