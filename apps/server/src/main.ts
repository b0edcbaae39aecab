import type { AddressInfo } from 'node:net';
import { connect, migrateToLatest, pruneChanges, redact } from '@directory/db';
import { createApp, createHttpServer } from './app.ts';
import { ChangeSignal } from './changes/signal.ts';
import { type Config, readConfig } from './config.ts';
import { createLogger, describeError } from './logger.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';

let config: Config;
try {
  config = readConfig(process.env);
} catch (err) {
  console.error(`Invalid configuration: ${(err as Error).message}`);
  process.exit(2);
}
const logger = createLogger(config.logLevel);

let handle: Awaited<ReturnType<typeof connect>>;
try {
  handle = await connect(config.databaseUrl, {
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
  });
  await migrateToLatest(handle.db);
} catch (err) {
  logger.fatal(
    { error: describeError(err), database: redact(config.databaseUrl) },
    'cannot open the database',
  );
  process.exit(1);
}

// The change feed: one listening connection wakes this process's long-polls and dispatcher.
const feed = new ChangeSignal({ allowPrivateTargets: config.changes.allowPrivateTargets });
try {
  await feed.listen(handle);
} catch (err) {
  logger.fatal({ error: describeError(err) }, 'cannot listen for changes');
  process.exit(1);
}
const dispatcher = startDispatcher({ db: handle.db, signal: feed, logger, ...config.changes });
async function prune() {
  try {
    const removed = await pruneChanges(handle.db, config.changes.retentionDays);
    if (removed > 0) logger.info({ removed, days: config.changes.retentionDays }, 'changes pruned');
  } catch (err) {
    logger.warn({ error: describeError(err) }, 'cannot prune changes');
  }
}
void prune();
const pruner = setInterval(() => void prune(), config.changes.pruneIntervalMs);

const app = createApp({
  feed,
  db: handle.db,
  pool: handle.pool,
  apiKey: config.apiKey,
  logger,
  bodyLimitBytes: config.bodyLimitBytes,
  rateLimit: config.rateLimit,
  trustProxy: config.trustProxy,
});
// Not app.listen(): Express 5 calls its callback on listen errors too.
const server = createHttpServer(app, config);
server.listen(config.port, config.host);
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  if (config.apiKeyGenerated) {
    // Printed once, so that a first run works; a configured key is never printed.
    console.log(`WEBHOOK_API_KEY is not set; this run's generated key: ${config.apiKey}`);
  }
  logger.info({ url: `http://${config.host}:${port}`, database: redact(config.databaseUrl) }, 'listening');
});
server.on('error', (err) => {
  logger.fatal({ error: describeError(err) }, 'cannot listen');
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Long-polls answer now (with what they have) instead of waiting out their `wait`.
  clearInterval(pruner);
  await feed.stop();
  // Stop accepting, let requests in flight finish, then close the pool.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Keep-alive connections go idle as their last answers (the long-polls just woken) finish.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await Promise.all([closed, dispatcher.stop()]);
  clearInterval(idle);
  clearTimeout(force);
  // A handler whose client went away may still be running: let it finish with the pool.
  const deadline = Date.now() + 10_000;
  const { pool } = handle;
  while ((pool.totalCount > pool.idleCount || pool.waitingCount > 0) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await handle.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
