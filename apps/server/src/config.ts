import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { DEFAULT_REAPER, type ReaperSettings, WEBHOOK_DEFAULTS } from '@directory/core/server';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from '@directory/db';
import type { RateLimitConfig } from './rate-limit.ts';
import { trustProxySetting } from './trust-proxy.ts';

export interface Config {
  port: number;
  host: string;
  apiKey: string;
  /** True when WEBHOOK_API_KEY was not set and a key was made for this run. */
  apiKeyGenerated: boolean;
  databaseUrl: string;
  /** DATABASE_READ_URL: hot standbys of DATABASE_URL, in order (docs/operating.md#settings). */
  databaseReadUrls: string[];
  /** READ_MAX_LAG_MS: a standby further behind than this is not read from. */
  readMaxLagMs: number;
  /** WEB_CONCURRENCY: server processes on the one port (PostgreSQL only; cluster.ts). */
  webConcurrency: number;
  bodyLimitBytes: number;
  dbPoolSize: number;
  /** READ_CACHE_MB: the read model's detail cache budget, in bytes. */
  readCacheBytes: number;
  /**
   * READ_MODEL_SNAPSHOT_DIR: where the read model keeps its snapshot (undefined: none). By
   * default the embedded database's directory; none on PostgreSQL unless set; `off`: none.
   */
  snapshotDir: string | undefined;
  /** READ_MODEL_SNAPSHOT_INTERVAL_S, in ms: how often a changed model is written (0: only at stop). */
  snapshotIntervalMs: number;
  /** RESPONSE_CACHE_MB: the budget of kept answers of the model's reads, in bytes (0: none). */
  responseCacheBytes: number;
  /** How long a request waits for a database connection; 0 waits forever. */
  dbConnectTimeoutMs: number;
  /** statement_timeout of every PostgreSQL connection; 0 is none. */
  dbStatementTimeoutMs: number;
  /** Whole request (headers and body) must arrive within this; Node's requestTimeout. */
  requestTimeoutMs: number;
  /** Headers must arrive within this; Node's headersTimeout. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; Node's keepAliveTimeout. */
  keepAliveTimeoutMs: number;
  rateLimit: RateLimitConfig;
  /** METRICS_PUBLIC=1: /metrics needs no key (else a key with metrics:read). */
  metricsPublic: boolean;
  /** Express's "trust proxy" setting, so that the client address is read from X-Forwarded-For; unset trusts none. */
  trustProxy: string | undefined;
  logLevel: string;
  /** The task queue's reaper: interval (0 is off), attempt limit and backoff. */
  reaper: ReaperSettings;
  changes: ChangesConfig;
}

/** The change feed and webhooks (README "Following changes"). */
export interface ChangesConfig {
  /** CHANGES_RETENTION_DAYS: changes older than this are removed (a cursor before them is 410). */
  retentionDays: number;
  /** CHANGES_PRUNE_INTERVAL_MS: how often retention runs (of the feed, and of revisions). */
  pruneIntervalMs: number;
  /**
   * REVISIONS_KEEP: revisions kept per project, the oldest pruned
   * (docs/curation.md#history-revert-locks-and-restore).
   */
  revisionsKeep: number;
  /** REVISIONS_DELETED_DAYS: a deleted project's revisions are kept this long after its delete. */
  revisionsDeletedDays: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhooks may target loopback and private addresses. */
  allowPrivateTargets: boolean;
  /** WEBHOOK_MAX_FAILURES: consecutive failed attempts that disable a webhook. */
  maxFailures: number;
  /** WEBHOOK_TIMEOUT_MS: one delivery attempt. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_MS: delay of the first retry (doubling, jittered). */
  retryBaseMs: number;
  /** WEBHOOK_POLL_MS: how often each process looks for due retries. */
  pollMs: number;
}

export type { RateLimitConfig } from './rate-limit.ts';

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return Number(raw);
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(raw))
    throw new Error(`${name} must be 1 or 0 (got "${raw}")`);
  return raw === '1' || raw === 'true';
}

/** TRUST_PROXY as given, once it is one of the forms trust-proxy.ts takes (unset: none). */
function trustProxy(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  trustProxySetting(raw);
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(raw: string): string {
  if (!LOG_LEVELS.includes(raw))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return raw;
}

/** PORT, HOST, WEBHOOK_API_KEY, DATABASE_URL and the tuning knobs of docs/operating.md#configuration. */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  const configuredKey = env.WEBHOOK_API_KEY;
  const apiKeyGenerated = configuredKey === undefined || configuredKey === '';
  return {
    port: integer(env, 'PORT', 3000, 0),
    host: env.HOST || '127.0.0.1',
    apiKey: apiKeyGenerated ? randomBytes(24).toString('base64url') : configuredKey,
    apiKeyGenerated,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    databaseReadUrls: readUrls(env),
    readMaxLagMs: integer(env, 'READ_MAX_LAG_MS', 2_000, 0),
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1),
    readCacheBytes: integer(env, 'READ_CACHE_MB', 256, 0) * 1024 * 1024,
    responseCacheBytes: integer(env, 'RESPONSE_CACHE_MB', 32, 0) * 1024 * 1024,
    snapshotDir: snapshotDir(env),
    snapshotIntervalMs: integer(env, 'READ_MODEL_SNAPSHOT_INTERVAL_S', 600, 0) * 1000,
    dbConnectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 5_000, 0),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 30_000, 0),
    ...timeouts(env),
    // the names of docs/keys-and-limits.md#rate-limiting; the older RATE_LIMIT_PER_ADDRESS /
    // RATE_LIMIT_PER_KEY still work
    rateLimit: {
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1_000),
      perAddress: integer(env, 'RATE_LIMIT_ANON_PER_MINUTE', integer(env, 'RATE_LIMIT_PER_ADDRESS', 0, 0), 0),
      perKey: integer(env, 'RATE_LIMIT_KEY_PER_MINUTE', integer(env, 'RATE_LIMIT_PER_KEY', 0, 0), 0),
    },
    metricsPublic: flag(env, 'METRICS_PUBLIC'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: logLevel(env.LOG_LEVEL || 'info'),
    reaper: reaperSettings(env),
    changes: changesConfig(env),
  };
}

/** docs/operating.md, "Restarts: the read model's snapshot". */
function snapshotDir(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.READ_MODEL_SNAPSHOT_DIR;
  if (raw === 'off') return undefined;
  if (raw) return resolve(raw);
  const target = parseDatabaseUrl(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  return target.kind === 'pglite' ? target.dir : undefined;
}

const POSTGRES = /^postgres(ql)?:\/\//;

/** DATABASE_READ_URL: comma-separated standbys of a PostgreSQL DATABASE_URL. */
function readUrls(env: NodeJS.ProcessEnv): string[] {
  const urls = (env.DATABASE_READ_URL ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length === 0) return [];
  if (!POSTGRES.test(env.DATABASE_URL ?? ''))
    throw new Error('DATABASE_READ_URL needs a PostgreSQL DATABASE_URL (its standbys replicate it)');
  for (const [i, url] of urls.entries())
    if (!POSTGRES.test(url))
      throw new Error(`DATABASE_READ_URL: entry ${i + 1} must be postgres://… or postgresql://…`);
  return urls;
}

function reaperSettings(env: NodeJS.ProcessEnv): ReaperSettings {
  const backoffBaseMs = integer(env, 'TASK_BACKOFF_BASE_MS', DEFAULT_REAPER.backoffBaseMs, 0);
  const backoffMaxMs = integer(env, 'TASK_BACKOFF_MAX_MS', DEFAULT_REAPER.backoffMaxMs, 0);
  if (backoffMaxMs < backoffBaseMs)
    throw new Error(`TASK_BACKOFF_MAX_MS must not be less than TASK_BACKOFF_BASE_MS (${backoffBaseMs})`);
  return {
    intervalMs: integer(env, 'TASK_REAP_INTERVAL_MS', DEFAULT_REAPER.intervalMs, 0),
    maxAttempts: integer(env, 'TASK_MAX_ATTEMPTS', DEFAULT_REAPER.maxAttempts, 1),
    backoffBaseMs,
    backoffMaxMs,
  };
}

function changesConfig(env: NodeJS.ProcessEnv): ChangesConfig {
  const allow = env.WEBHOOK_ALLOW_PRIVATE ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(allow))
    throw new Error(`WEBHOOK_ALLOW_PRIVATE must be 1 or 0 (got "${allow}")`);
  return {
    retentionDays: integer(env, 'CHANGES_RETENTION_DAYS', 30, 1),
    pruneIntervalMs: integer(env, 'CHANGES_PRUNE_INTERVAL_MS', 60 * 60 * 1000, 1_000),
    revisionsKeep: integer(env, 'REVISIONS_KEEP', 100, 1),
    revisionsDeletedDays: integer(env, 'REVISIONS_DELETED_DAYS', 90, 0),
    allowPrivateTargets: allow === '1' || allow === 'true',
    maxFailures: integer(env, 'WEBHOOK_MAX_FAILURES', WEBHOOK_DEFAULTS.maxFailures, 1),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', WEBHOOK_DEFAULTS.timeoutMs, 100),
    retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', WEBHOOK_DEFAULTS.retryBaseMs, 1),
    pollMs: integer(env, 'WEBHOOK_POLL_MS', 1_000, 10),
  };
}

function timeouts(env: NodeJS.ProcessEnv) {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 1);
  // Node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error(`HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1),
  };
}
