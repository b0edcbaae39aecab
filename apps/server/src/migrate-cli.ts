import { urlKey } from '@directory/core/server';
import { connect, DEFAULT_DATABASE_URL, migrateToLatest, redact } from '@directory/db';

// `pnpm db:migrate`: one line for a person either way, and exit code 1 on failure (no stack trace:
// the reasons it fails — a directory held by a running server, an unreachable server — are
// said in the message).
const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
try {
  const handle = await connect(url);
  try {
    await migrateToLatest(handle.db, { urlKey });
    console.log(`migrated ${redact(url)}`);
  } finally {
    await handle.close();
  }
} catch (err) {
  let root = err;
  while (root instanceof Error && root.cause !== undefined) root = root.cause;
  const message =
    root instanceof Error ? root.message || String((root as { code?: unknown }).code) : String(root);
  console.error(`Cannot migrate ${redact(url)}: ${message}`);
  process.exitCode = 1;
}
