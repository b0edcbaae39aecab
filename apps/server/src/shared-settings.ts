import { createHash, createHmac } from 'node:crypto';
import { redact } from '@directory/db';
import type { Config } from './config.ts';

/**
 * The settings every server process of one deployment must share (docs/operating.md, "Settings
 * that must match across processes"): they decide what the shared database and the clients see,
 * whichever process does the work. Each process logs them at start and answers them at
 * `GET /healthz?verbose=1`, with one fingerprint of them all, so that an operator compares
 * processes with one figure. Never a secret: the key appears as a fingerprint only.
 */
export interface SharedSettings {
  /** By environment variable, the value this process runs with (defaults included). */
  settings: Record<string, string | number | boolean>;
  /** 16 hex digits of a hash of `settings`: equal on processes whose settings are all equal. */
  fingerprint: string;
}

/**
 * A fingerprint of the API key that tells two keys apart without giving the key away, and from
 * which no key can be tested offline (docs/operating.md#settings-that-must-match-across-processes):
 * an HMAC-SHA256 of the key under `secret`, the random secret every process of a deployment
 * shares and never shows (api-key.ts resolveKeys), with a label of its own; 8 bytes.
 */
export function keyFingerprint(apiKey: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(`project-directory: API key fingerprint\0${apiKey}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * The shared settings of a process, from its configuration, the key it resolved and the database
 * it reached (`databaseIdentity`: the same database under two spellings of its URL is the same;
 * without it, the URL with any password blanked).
 */
export function sharedSettings(
  config: Config,
  apiKey: string | undefined,
  database: string | undefined,
  /** The service's secret (api-key.ts resolveKeys) that keys the key's fingerprint. */
  secret: string,
): SharedSettings {
  const { changes, reaper, rateLimit } = config;
  const settings = {
    DATABASE_URL: database ?? redact(config.databaseUrl),
    WEBHOOK_API_KEY:
      apiKey === undefined
        ? 'none (named keys in the database)'
        : `fingerprint ${keyFingerprint(apiKey, secret)}`,
    WEBHOOK_ALLOW_PRIVATE: changes.allowPrivateTargets,
    WEBHOOK_MAX_FAILURES: changes.maxFailures,
    WEBHOOK_TIMEOUT_MS: changes.timeoutMs,
    WEBHOOK_RETRY_BASE_MS: changes.retryBaseMs,
    CHANGES_RETENTION_DAYS: changes.retentionDays,
    REVISIONS_KEEP: changes.revisionsKeep,
    REVISIONS_DELETED_DAYS: changes.revisionsDeletedDays,
    TASK_MAX_ATTEMPTS: reaper.maxAttempts,
    TASK_BACKOFF_BASE_MS: reaper.backoffBaseMs,
    TASK_BACKOFF_MAX_MS: reaper.backoffMaxMs,
    BODY_LIMIT_BYTES: config.bodyLimitBytes,
    RATE_LIMIT_ANON_PER_MINUTE: rateLimit.perAddress,
    RATE_LIMIT_KEY_PER_MINUTE: rateLimit.perKey,
    RATE_LIMIT_WINDOW_MS: rateLimit.windowMs,
    METRICS_PUBLIC: config.metricsPublic,
  };
  const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);
  return { settings, fingerprint };
}
