import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { ReadModel, startReaper, urlKey } from '@directory/core/server';
import {
  connect,
  databaseIdentity,
  migrateToLatest,
  pruneChanges,
  pruneRevisions,
  ReadSources,
  redact,
} from '@directory/db';
import { type ResolvedKeys, resolveKeys } from './api-key.ts';
import { createApp, createHttpServer, queueCounter } from './app.ts';
import { startBanner } from './banner.ts';
import { ChangeSignal } from './changes/signal.ts';
import { RETIRE } from './cluster.ts';
import { type Config, readConfig } from './config.ts';
import { retire } from './http-server.ts';
import { createLogger, describeError } from './logger.ts';
import { sharedSettings } from './shared-settings.ts';
import { startDispatch } from './webhooks/dispatch.ts';

/** A start that cannot go on: one line for a person on stderr (not a log line), and exit code 1. */
function cannotStart(message: string): never {
  console.error(`Cannot start the server: ${message}`);
  process.exit(1);
}

let config: Config;
try {
  config = readConfig(process.env);
} catch (err) {
  console.error(`Invalid configuration: ${(err as Error).message}`);
  process.exit(2);
}
const logger = createLogger(config.logLevel);

let handle: Awaited<ReturnType<typeof connect>>;
// the migrations this start applied: logged with `listening`, so that a start that fails says one line
let applied: string[] = [];
try {
  handle = await connect(config.databaseUrl, {
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
  });
  applied = await migrateToLatest(handle.db, { urlKey });
} catch (err) {
  const { message, code } = describeError(err);
  cannotStart(
    `cannot open the database ${redact(config.databaseUrl)}: ${message ?? code ?? 'unknown error'}`,
  );
}

// DATABASE_READ_URL: the standbys the read model and the reads use while they keep up
// (docs/operating.md#standbys). A standby that is down now is used once it answers.
let reads: ReadSources | undefined;
if (config.databaseReadUrls.length > 0) {
  try {
    reads = await ReadSources.open({
      primary: handle,
      primaryUrl: config.databaseUrl,
      standbyUrls: config.databaseReadUrls,
      maxLagMs: config.readMaxLagMs,
      connectOptions: {
        poolSize: config.dbPoolSize,
        // a standby that does not answer is given up quickly: the primary answers instead
        connectTimeoutMs: Math.min(config.dbConnectTimeoutMs || 1_000, 1_000),
        statementTimeoutMs: config.dbStatementTimeoutMs,
      },
      log: (message, err) =>
        err === undefined ? logger.info(message) : logger.warn({ error: describeError(err) }, message),
    });
  } catch (err) {
    await handle.close();
    cannotStart(`cannot use DATABASE_READ_URL: ${describeError(err).message ?? 'unknown error'}`);
  }
}

let apiKey: ResolvedKeys;
try {
  apiKey = await resolveKeys(
    config.apiKeyGenerated ? undefined : config.apiKey,
    config.databaseUrl,
    handle.db,
  );
} catch (err) {
  await handle.close();
  cannotStart(`cannot read or make the API key: ${(err as Error).message}`);
}

// What every process of the deployment must share, logged once it listens (after the banner, and
// not by a process that cannot start) so that processes can be compared (GET /healthz?verbose=1
// answers the same).
const shared = sharedSettings(config, apiKey.key, await databaseIdentity(handle.db), apiKey.secret);

// The change feed: one listening connection wakes this process's long-polls and dispatcher.
const feed = new ChangeSignal();
try {
  await feed.listen(handle);
} catch (err) {
  await handle.close();
  cannotStart(`cannot listen for changes: ${describeError(err).message ?? 'unknown error'}`);
}
const dispatcher = startDispatch({ db: handle.db, config, signal: feed, logger });
// Retention: the feed's, then history's. A run in progress is waited for when the server stops
// (and none begins afterwards), so that it never logs a query on a closed pool.
let pruneStopped = false;
async function prune() {
  try {
    const removed = await pruneChanges(handle.db, config.changes.retentionDays);
    if (removed > 0) logger.info({ removed, days: config.changes.retentionDays }, 'changes pruned');
  } catch (err) {
    logger.warn({ error: describeError(err) }, 'cannot prune changes');
  }
  // History's retention (docs/curation.md#history-revert-locks-and-restore) runs in the same job, after
  // the feed's.
  if (pruneStopped) return;
  try {
    const { revisionsKeep: keep, revisionsDeletedDays: deletedDays } = config.changes;
    const removed = await pruneRevisions(handle.db, keep, deletedDays);
    if (removed > 0) logger.info({ removed, keep, deletedDays }, 'revisions pruned');
  } catch (err) {
    logger.warn({ error: describeError(err) }, 'cannot prune revisions');
  }
}
// The pass in flight, awaited before the pool closes (else it logs a failed query on the way out).
let pruning = prune();
const pruner = setInterval(() => {
  pruning = prune();
}, config.changes.pruneIntervalMs);
function stopPruning(): Promise<void> {
  pruneStopped = true;
  clearInterval(pruner);
  return pruning;
}

// The read model: every read of projects and tags is served from it. It builds while the
// server already listens (/healthz answers 503 until it is built), then follows the feed.
const readModel = new ReadModel({
  db: handle.db,
  reads,
  feed,
  cacheBytes: config.readCacheBytes,
  warn: (message, err) => logger.warn({ error: describeError(err) }, message),
  snapshots: config.snapshotDir
    ? {
        dir: config.snapshotDir,
        intervalMs: config.snapshotIntervalMs,
        log: (message, fields, level = 'info') => logger[level](fields, message),
      }
    : undefined,
});
function startReadModel(): Promise<void> {
  return readModel.start().then(() => {
    const s = readModel.stats();
    const seconds = Math.round(s.buildSeconds * 1000) / 1000;
    // the memory of this process (each of WEB_CONCURRENCY processes keeps its own model)
    const residentMiB = Math.round(process.memoryUsage.rss() / 2 ** 20);
    if (!stopping)
      logger.info(
        { projects: s.projects, tags: s.tags, seconds, residentMiB, from: s.readyFrom },
        'read model built',
      );
  });
}

const app = createApp({
  readModel,
  responseCacheBytes: config.responseCacheBytes,
  feed,
  db: handle.db,
  reads,
  pool: handle.pool,
  apiKey: apiKey.key,
  secret: apiKey.secret,
  metricsPublic: config.metricsPublic,
  rateLimitPool: handle.target.kind === 'postgres' ? handle.pool : undefined,
  logger,
  bodyLimitBytes: config.bodyLimitBytes,
  // each of WEB_CONCURRENCY processes limits at its share while the database is away
  rateLimit: { ...config.rateLimit, processes: config.webConcurrency },
  trustProxy: config.trustProxy,
  allowPrivateWebhookTargets: config.changes.allowPrivateTargets,
  webhookTimeoutMs: config.changes.timeoutMs,
  sharedSettings: shared,
});
// Expired task leases back to the queue; one process at a time across all of them.
const reaper = startReaper({
  db: handle.db,
  settings: config.reaper,
  onReaped: (r) => {
    queueCounter(app)('reaped', r.requeued + r.failed);
    logger.info(r, 'reaped expired task leases');
  },
  onError: (err) => logger.warn({ error: describeError(err) }, 'reaper pass failed'),
});
// Not app.listen(): Express 5 calls its callback on listen errors too.
const server = createHttpServer(app, config);
// Started in place of another (a crash, a reload: cluster.ts), a process takes connections only
// once its model is ready; the first processes listen at once and answer 503 until then.
const listenWhenReady = cluster.isWorker && process.env.DIRECTORY_LISTEN_WHEN_READY === '1';
if (listenWhenReady)
  void startReadModel().then(() => {
    if (!stopping) server.listen(config.port, config.host);
  });
else server.listen(config.port, config.host);
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  // A configured key is never printed; a generated one is printed once, when it is made.
  const { source } = apiKey;
  if (source.kind === 'created') {
    console.log(`WEBHOOK_API_KEY is not set; generated an API key, kept in ${source.file}: ${apiKey.key}`);
  } else if (source.kind === 'stored') {
    console.log(`WEBHOOK_API_KEY is not set; using the API key kept in ${source.file}`);
  } else if (source.kind === 'ephemeral') {
    console.log(`WEBHOOK_API_KEY is not set; this run's generated key: ${apiKey.key}`);
  } else if (source.kind === 'database' && source.admin !== undefined) {
    console.log(
      `WEBHOOK_API_KEY is not set and the database had no key with keys:admin; created the key "admin" (every scope), shown only now: ${source.admin}`,
    );
  } else if (source.kind === 'database') {
    console.log('WEBHOOK_API_KEY is not set; using the named keys in the database');
  }
  // For a person at a terminal, where to go next; a pipe or a file gets JSON lines only.
  // (Of several processes, the first says it.)
  const banner = startBanner({ isTTY: process.stdout.isTTY, host: config.host, port });
  if (banner && (cluster.worker?.id ?? 1) === 1) console.log(banner);
  logger.info(shared, 'settings that must match across processes');
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  logger.info({ url: `http://${config.host}:${port}`, database: redact(config.databaseUrl) }, 'listening');
  if (!listenWhenReady) void startReadModel();
});
server.on('error', (err) => {
  const { message, code } = describeError(err);
  const hint = code === 'EADDRINUSE' ? ' (another process uses that port: stop it, or set PORT)' : '';
  // The background jobs stop before the pool closes, so that none of them logs a failed query.
  void Promise.allSettled([reaper.stop(), feed.stop(), dispatcher.stop(), readModel.stop(), stopPruning()])
    .then(() => reads?.close())
    .then(() => handle.close())
    .finally(() => cannotStart(`cannot listen on ${config.host}:${config.port}: ${message}${hint}`));
});

let stopping = false;
let serverClosed: Promise<void> | undefined;
/**
 * Stops accepting connections; resolves once the last one has ended. A reload's old process
 * (`keepAlive`) leaves its kept-alive connections to close after their next answer or their
 * keep-alive timeout (http-server.ts); a stop closes the idle ones at once.
 */
const closeServer = (keepAlive = false) => {
  serverClosed ??= keepAlive ? retire(server) : new Promise<void>((resolve) => server.close(() => resolve()));
  return serverClosed;
};
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  if (signal === 'reload') {
    // A reload's old process first lets its kept-alive connections end as they would have (their
    // answers say `Connection: close`; one left idle closes at its keep-alive timeout), its model
    // still following the feed; then it stops as on SIGTERM (long-polls answer now).
    const waited = new Promise((resolve) => setTimeout(resolve, config.keepAliveTimeoutMs + 1_000).unref());
    await Promise.race([closeServer(true), waited]);
  }
  await reaper.stop();
  // Long-polls answer now (with what they have) instead of waiting out their `wait`.
  await feed.stop();
  const pruned = stopPruning();
  await readModel.stop();
  // Stop accepting, let requests in flight finish, then close the pool.
  const closed = closeServer();
  server.closeIdleConnections();
  // Keep-alive connections go idle as their last answers (the long-polls just woken) finish.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await Promise.all([closed, dispatcher.stop(), pruned]);
  clearInterval(idle);
  clearTimeout(force);
  // A handler whose client went away may still be running: let it finish with the pool.
  const deadline = Date.now() + 10_000;
  const { pool } = handle;
  while ((pool.totalCount > pool.idleCount || pool.waitingCount > 0) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await reads?.close();
  await handle.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A reload's old process (cluster.ts): no new connection from now, then the same stop.
process.on('message', (message: unknown) => {
  if ((message as { type?: unknown } | null)?.type !== RETIRE) return;
  void closeServer(true);
  void shutdown('reload');
});
process.on('SIGINT', () => void shutdown('SIGINT'));
