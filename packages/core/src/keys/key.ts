import type { KeyRow } from '@directory/db';
import { z } from 'zod';
import { isPlainName, PLAIN_NAME_RULE } from '../domain/plain-name.ts';
import { SCOPES } from '../domain/scopes.ts';
import { isoOrNull, text, timestamp } from '../schemas/common.ts';

/** A key's own rate limit: `requests` per `windowSeconds`. */
export const RateLimit = z
  .object({
    requests: z.int().min(1).max(1_000_000),
    windowSeconds: z.int().min(1).max(86_400),
  })
  .meta({ id: 'KeyRateLimit', description: 'Requests per window; null: RATE_LIMIT_KEY_PER_MINUTE' });

export const ScopeName = z.enum(SCOPES);

/** A key's name: shown in history as the actor of its writes, so a plain name (domain/plain-name.ts). */
export const KeyName = text({ min: 1, max: 100 }).refine(isPlainName, PLAIN_NAME_RULE);

/** A named key as every answer shows it: never the key itself. */
export const ApiKeyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    start: z.string().meta({ description: 'The first 12 characters of the key, to tell keys apart' }),
    scopes: z.array(ScopeName),
    createdAt: timestamp,
    expiresAt: timestamp.nullable(),
    revokedAt: timestamp
      .nullable()
      .meta({ description: 'When the key was (or, after a rotation with grace, will be) refused from' }),
    lastUsedAt: timestamp
      .nullable()
      .meta({ description: 'Last use, recorded at most once a minute per key and server process' }),
    rateLimit: RateLimit.nullable(),
  })
  .meta({ id: 'ApiKey' });

/** The answer of create and rotate: the record and, this once, the key. */
export const NewApiKey = ApiKeyRecord.omit({ revokedAt: true, lastUsedAt: true })
  .extend({ key: z.string().meta({ description: 'The key: shown in this answer only, never again' }) })
  .meta({ id: 'NewApiKey' });

export function toKeyRecord(row: KeyRow): z.infer<typeof ApiKeyRecord> {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    scopes: row.scopes.filter((s): s is z.infer<typeof ScopeName> =>
      (SCOPES as readonly string[]).includes(s),
    ),
    createdAt: row.created_at.toISOString(),
    expiresAt: isoOrNull(row.expires_at),
    revokedAt: isoOrNull(row.revoked_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    rateLimit:
      row.rate_limit_requests !== null && row.rate_limit_window_seconds !== null
        ? { requests: row.rate_limit_requests, windowSeconds: row.rate_limit_window_seconds }
        : null,
  };
}

export function toNewKey(row: KeyRow, key: string): z.infer<typeof NewApiKey> {
  const { revokedAt: _r, lastUsedAt: _l, ...record } = toKeyRecord(row);
  return { ...record, key };
}

export const sampleKey = {
  id: 'k3v9q2m8x1c4b7n5z6',
  name: '爬虫集群 crawler-fleet',
  start: 'dir_4Xk9PqRz',
  scopes: ['tasks:write', 'projects:write'],
  createdAt: '2026-11-26T10:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: '2026-11-26T10:05:12.000Z',
  rateLimit: { requests: 600, windowSeconds: 60 },
} as const;

export const SAMPLE_KEY_VALUE = 'dir_4Xk9PqRzT7mW2vB8nY3cL6hJ1sD5fG9aK2xQ4eR7tU';
