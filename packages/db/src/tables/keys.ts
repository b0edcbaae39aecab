import type { Generated } from 'kysely';

/** Named keys (migration 2026_11_26_000960_api_keys): the SHA-256 of each key, never the key. */
export interface ApiKeysTable {
  id: string;
  name: string;
  hash: string;
  start: string;
  scopes: string[];
  created_at: Generated<Date>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
  admin: Generated<boolean>;
  /** The first key of its chain of rotations (migration 2026_11_28_001010); null: its own id. */
  lineage: string | null;
}

/** rate-limiter-flexible's counters (RateLimiterPostgres). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}
