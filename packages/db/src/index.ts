export { type Kysely, sql, type Transaction } from 'kysely';
export * from './connect.ts';
export * from './duplicates.repository.ts';
export * from './locks.ts';
export { migrateToLatest } from './migrate.ts';
export * from './projects.repository.ts';
export * from './tables.ts';
export * from './tags.repository.ts';
export * from './tasks.repository.ts';
