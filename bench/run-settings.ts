import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './processes.ts';
import { DEFAULT_TASKS } from './seed.ts';

// The settings of `pnpm bench` (run.ts): its flags, each with an environment variable and a default.

export const { values: flags } = parseArgs({
  // `pnpm bench -- --write` passes the `--` along; it separates nothing here.
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    sizes: { type: 'string' },
    tasks: { type: 'string' },
    connections: { type: 'string' },
    'batch-connections': { type: 'string' },
    'upsert-connections': { type: 'string' },
    'db-pool-size': { type: 'string' },
    'claims-per-second': { type: 'string' },
    scenarios: { type: 'string' },
    'queue-sizes': { type: 'string' },
    'api-max': { type: 'string' },
    'freshness-samples': { type: 'string' },
    before: { type: 'string' },
    'compare-projects': { type: 'string' },
    'compare-rounds': { type: 'string' },
    'history-projects': { type: 'string' },
    'writes-projects': { type: 'string' },
    'move-projects': { type: 'string' },
    'writes-batches': { type: 'string' },
    'writes-backends': { type: 'string' },
    'writes-before': { type: 'string' },
    'cpu-prof': { type: 'string' },
    'writer-rate': { type: 'string' },
    'writer-batch': { type: 'string' },
    'database-url': { type: 'string' },
    'response-cache-mb': { type: 'string' },
    'scaling-projects': { type: 'string' },
    'scaling-processes': { type: 'string' },
    'generator-threads': { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

export function setting(flag: keyof typeof flags, env: string, fallback: string): string {
  const value = flags[flag] ?? process.env[env];
  return typeof value === 'string' && value !== '' ? value : fallback;
}

export function integer(flag: keyof typeof flags, env: string, fallback: number, min: number): number {
  const raw = setting(flag, env, String(fallback));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag} / ${env} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

export const settings = {
  duration: integer('duration', 'BENCH_DURATION', 10, 1),
  warmup: integer('warmup', 'BENCH_WARMUP', 5, 0),
  connections: integer('connections', 'BENCH_CONNECTIONS', 64, 1),
  batchConnections: integer('batch-connections', 'BENCH_BATCH_CONNECTIONS', 16, 1),
  upsertConnections: integer('upsert-connections', 'BENCH_UPSERT_CONNECTIONS', 4, 1),
  dbPoolSize: integer('db-pool-size', 'BENCH_DB_POOL_SIZE', 10, 1),
  sizes: setting('sizes', 'BENCH_SIZES', '1000,100000,1000000')
    .split(',')
    .map((s) => Number(s.trim())),
};
if (settings.sizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--sizes must list integers >= 1');
// Sizes up to this are written through endpoint 1, as users do; larger ones straight into the tables.
export const apiMax = integer('api-max', 'BENCH_API_MAX', 100_000, 0);
export const freshnessSamples = integer('freshness-samples', 'BENCH_FRESHNESS_SAMPLES', 300, 1);
// The upserts of the commit before the read model, side by side with this checkout's.
export const before = setting('before', 'BENCH_BEFORE', '898dbff');
export const compareProjects = integer('compare-projects', 'BENCH_COMPARE_PROJECTS', 10_000, 1);
export const compareRounds = integer('compare-rounds', 'BENCH_COMPARE_ROUNDS', 2, 1);
// A directory for a CPU profile of the measured server at each size (node --cpu-prof), written when it stops.
export const cpuProfile = setting('cpu-prof', 'BENCH_CPU_PROF', '');
// The writer of the `writer-…` scenarios: projects per second it tries to update, and per batch.
export const writerRate = integer('writer-rate', 'BENCH_WRITER_RATE', 50, 1);
export const writerBatch = integer('writer-batch', 'BENCH_WRITER_BATCH', 5, 1);
export const claimsPerSecond = integer('claims-per-second', 'BENCH_CLAIMS_PER_SECOND', 5000, 1);
export const tasks = integer('tasks', 'BENCH_TASKS', DEFAULT_TASKS, 1);
export const only = setting('scenarios', 'BENCH_SCENARIOS', '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// RESPONSE_CACHE_MB of the measured server (unset: its default); 0 measures every answer afresh.
export const responseCacheMb = setting('response-cache-mb', 'BENCH_RESPONSE_CACHE_MB', '');
export const adminUrl = setting(
  'database-url',
  'BENCH_DATABASE_URL',
  'postgres://postgres@127.0.0.1:5432/test',
);
export const apiKey = `bench-${randomBytes(12).toString('hex')}`;

export const SERVER = join(ROOT, 'apps/server/src/main.ts');
export const wanted = (key: string) => only.length === 0 || only.includes(key);
