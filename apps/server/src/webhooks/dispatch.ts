import { Worker } from 'node:worker_threads';
import { type ConnectOptions, type Database, type Kysely, parseDatabaseUrl } from '@directory/db';
import type { ChangeSignal } from '../changes/signal.ts';
import type { ChangesConfig, Config } from '../config.ts';
import { describeError, type Logger } from '../logger.ts';
import { startDispatcher } from './dispatcher.ts';

/** What the dispatcher's thread is given (structured-cloned: plain data only). */
export interface DispatchThreadData {
  databaseUrl: string;
  connectOptions: ConnectOptions;
  logLevel: string;
  changes: ChangesConfig;
}

/** The messages between a process and its dispatcher's thread. */
export const THREAD_MESSAGES = {
  poke: 'poke',
  stop: 'stop',
  stopped: 'stopped',
  ready: 'ready',
  failed: 'failed',
} as const;

/**
 * The dispatcher's thread. Built, its entry sits beside the bundle's chunks; from source (tsx), the
 * thread loads the TypeScript entry through tsx's API (a thread does not inherit the loader).
 */
function startThread(workerData: DispatchThreadData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./dispatcher-thread.js', import.meta.url), { workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./dispatcher-thread.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((tsx) => tsx.tsImport(${entry}, ${entry}))`, {
    eval: true,
    workerData,
  });
}

/** How long a stopping thread may take to finish its sends and close its connections. */
const STOP_TIMEOUT_MS = 5_000;

export interface DispatchOptions {
  db: Kysely<Database>;
  config: Pick<
    Config,
    'databaseUrl' | 'dbConnectTimeoutMs' | 'dbStatementTimeoutMs' | 'logLevel' | 'changes'
  >;
  signal: ChangeSignal;
  logger: Logger;
}

/**
 * Starts this process's webhook dispatcher (docs/changes-and-webhooks.md#webhooks--key). On PostgreSQL it
 * runs on a thread of its own with its own connections: a burst of writes queues one delivery per
 * change in the writes' own transactions (nothing else), and the sending, signing and recording that
 * follow take another core, not the event loop that answers the writes. On PGlite (one connection, in
 * this thread) it runs here. A thread that cannot start, or dies, is replaced by a dispatcher here.
 */
export function startDispatch(options: DispatchOptions): { stop(): Promise<void> } {
  const { config } = options;
  const inProcess = () =>
    startDispatcher({ db: options.db, signal: options.signal, logger: options.logger, ...config.changes });
  if (parseDatabaseUrl(config.databaseUrl).kind !== 'postgres') return inProcess();

  let fallback: { stop(): Promise<void> } | undefined;
  let stopping = false;
  const data: DispatchThreadData = {
    databaseUrl: config.databaseUrl,
    // two connections: its claim and its record follow one another
    connectOptions: {
      poolSize: 2,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      statementTimeoutMs: config.dbStatementTimeoutMs,
    },
    logLevel: config.logLevel,
    changes: config.changes,
  };
  const worker = startThread(data);
  const takeOver = (reason: string, err?: unknown) => {
    if (stopping || fallback) return;
    options.logger.warn(
      { ...(err !== undefined && { error: describeError(err) }) },
      `webhook: the dispatcher thread ${reason}; this process's event loop sends instead`,
    );
    unsubscribe();
    fallback = inProcess();
    void worker.terminate();
  };
  const unsubscribe = options.signal.subscribe(() => worker.postMessage(THREAD_MESSAGES.poke));
  worker.on('message', (message: unknown) => {
    if (message === THREAD_MESSAGES.failed) takeOver('cannot connect');
  });
  worker.on('error', (err) => takeOver('failed', err));
  worker.on('exit', (code) => takeOver(`exited with code ${code}`));
  // The thread keeps no process alive on its own: the server's shutdown decides when to stop it.
  worker.unref();

  return {
    async stop() {
      if (fallback) return fallback.stop();
      stopping = true;
      unsubscribe();
      const stopped = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.on('message', (message: unknown) => message === THREAD_MESSAGES.stopped && done());
        worker.once('exit', done);
      });
      worker.postMessage(THREAD_MESSAGES.stop);
      await stopped;
      await worker.terminate();
    },
  };
}
