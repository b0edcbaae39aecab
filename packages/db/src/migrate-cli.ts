import { connect, DEFAULT_DATABASE_URL, redact } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const handle = await connect(url);
try {
  await migrateToLatest(handle.db);
  console.log(`migrated ${redact(url)}`);
} finally {
  await handle.close();
}
