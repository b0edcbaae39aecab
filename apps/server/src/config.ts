import { randomBytes } from 'node:crypto';
import { DEFAULT_DATABASE_URL } from '@directory/db';

export interface Config {
  port: number;
  host: string;
  apiKey: string;
  /** True when WEBHOOK_API_KEY was not set and a key was made for this run. */
  apiKeyGenerated: boolean;
  databaseUrl: string;
  bodyLimitBytes: number;
  dbPoolSize: number;
  logLevel: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return Number(raw);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(raw: string): string {
  if (!LOG_LEVELS.includes(raw))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return raw;
}

/** The runtime contract of DECISIONS.md, plus the tuning knobs the README lists. */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  const configuredKey = env.WEBHOOK_API_KEY;
  const apiKeyGenerated = configuredKey === undefined || configuredKey === '';
  return {
    port: integer(env, 'PORT', 3000, 0),
    host: env.HOST || '127.0.0.1',
    apiKey: apiKeyGenerated ? randomBytes(24).toString('base64url') : configuredKey,
    apiKeyGenerated,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1),
    logLevel: logLevel(env.LOG_LEVEL || 'info'),
  };
}
