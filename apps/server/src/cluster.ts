import cluster from 'node:cluster';
import { parseDatabaseUrl } from '@directory/db';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { answerMetricsAsks } from './cluster-metrics.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/*
 * WEB_CONCURRENCY (the Node convention): how many server processes answer on the one port, so
 * that a machine's every core serves. The first process (the primary) starts them with
 * node:cluster and serves nothing itself: the processes accept connections from the one shared
 * socket themselves (SCHED_NONE, below); the primary starts a process again if one dies after it
 * was serving, and stops them all on SIGTERM or SIGINT. Each process is a whole server (serve.ts) with its own read model, pool
 * (DB_POOL_SIZE each) and background jobs; the database keeps them consistent as it does for
 * processes on several machines (docs/operating.md, "Several server processes").
 */

/** How many processes to run, and why fewer than asked. */
export function serverProcesses(config: Pick<Config, 'webConcurrency' | 'databaseUrl'>): {
  count: number;
  why?: string;
} {
  if (config.webConcurrency <= 1) return { count: 1 };
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.kind === 'postgres') return { count: config.webConcurrency };
  return {
    count: 1,
    why:
      `WEB_CONCURRENCY=${config.webConcurrency} needs PostgreSQL: the embedded database (PGlite) ` +
      'runs inside one process, so one server process runs',
  };
}

/** What the primary sends a process a reload replaces (serve.ts): stop taking connections, finish, exit. */
export const RETIRE = 'directory:retire';

/** How long a retiring process may take to finish its requests and stop (then it is killed). */
const RETIRE_TIMEOUT_MS = 30_000;

/** The primary: starts `count` server processes and looks after them until it is told to stop. */
export function runPrimary(
  count: number,
  _config: Pick<Config, 'apiKeyGenerated'>,
  hostLogger: Logger,
): void {
  const logger = hostLogger.child({ process: 'primary' });
  // Each process accepts from the shared socket itself, so a connection is only ever in one
  // process: one killed (kill -9, out of memory) takes its connections with it and the kernel
  // closes them. node:cluster's default on Linux, round-robin, has the primary accept and hand
  // each connection over, keeping its copy until the process says it got it; a process that dies
  // first leaves that connection open and unanswered for good. The balance between processes
  // was measured as even as round-robin's (docs/decisions.md#server-processes).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  // Without WEBHOOK_API_KEY (PostgreSQL: WEB_CONCURRENCY needs it), every process uses the named
  // keys in the database, and the first to start with none creates the one admin key
  // (docs/keys-and-limits.md#the-bootstrap-key).
  const env: Record<string, string> = {};
  logger.info({ processes: count, pid: process.pid }, 'starting server processes (WEB_CONCURRENCY)');

  // /metrics of the whole host: every process's series and the primary's own (cluster-metrics.ts)
  const own = new Registry();
  own.setDefaultLabels({ process: 'primary' });
  collectDefaultMetrics({ register: own });
  answerMetricsAsks(own);

  const serving = new Set<number>();
  // each process's slot (1…count), its `process` label: one started again takes the slot back
  const slots = new Map<number, number>();
  // processes a reload is replacing (their exit is no crash), and the ones it started
  const retiring = new Set<number>();
  const replacing = new Set<number>();
  let stopping = false;
  let exitCode = 0;
  // The first processes listen at once (their /healthz answers 503 while each builds its model);
  // a process started later, in place of one that died or by a reload, listens only once its
  // model is ready, so the others keep every connection until then (serve.ts).
  const start = (slot: number, whenReady: boolean) => {
    const worker = cluster.fork({
      ...env,
      DIRECTORY_PROCESS: String(slot),
      ...(whenReady && { DIRECTORY_LISTEN_WHEN_READY: '1' }),
    });
    slots.set(worker.id, slot);
    worker.once('listening', () => serving.add(worker.id));
    return worker;
  };
  const stop = (code: number) => {
    if (!stopping) exitCode = code;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };

  cluster.on('exit', (worker, code, signal) => {
    const wasServing = serving.delete(worker.id);
    const slot = slots.get(worker.id) ?? worker.id;
    slots.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (retiring.delete(worker.id)) return;
    const fields = { process: slot, pid: worker.process.pid, code, signal };
    if (replacing.delete(worker.id) && !wasServing) {
      logger.error(fields, 'a new process of the reload exited before it served');
      return;
    }
    if (!wasServing) {
      // It could not start (the database, the port): the others would fail alike.
      logger.error(fields, 'a server process exited before it served; stopping');
      stop(code || 1);
      return;
    }
    logger.error(fields, 'a server process exited; starting another');
    setTimeout(() => {
      if (!stopping) start(slot, true);
    }, 1000).unref();
  });

  /**
   * SIGHUP: a rolling reload (docs/operating.md#reloads). Each process in turn is replaced: a new
   * one (the code on disk now) starts in its slot and listens once its model is ready; only then
   * is the old one told to retire — it stops taking connections, finishes what it has, and exits.
   * A new process that cannot start ends the reload; the old ones keep serving.
   */
  let reloading = false;
  const reload = async () => {
    if (reloading || stopping) return;
    reloading = true;
    logger.info('reloading: replacing the server processes one at a time');
    for (const old of Object.values(cluster.workers ?? {})) {
      if (!old || stopping || !serving.has(old.id)) continue;
      const slot = slots.get(old.id) ?? old.id;
      const next = start(slot, true);
      replacing.add(next.id);
      const ready = await new Promise<boolean>((resolve) => {
        next.once('listening', () => resolve(true));
        next.once('exit', () => resolve(false));
      });
      replacing.delete(next.id);
      if (!ready) {
        logger.error({ process: slot }, 'reload stopped: a new process could not start; the others serve on');
        break;
      }
      retiring.add(old.id);
      const gone = new Promise((resolve) => old.once('exit', resolve));
      old.send({ type: RETIRE });
      // a process that does not finish within its stop time is ended
      const kill = setTimeout(() => old.process.kill('SIGKILL'), RETIRE_TIMEOUT_MS);
      await gone;
      clearTimeout(kill);
    }
    reloading = false;
    if (!stopping) logger.info('reloaded');
  };

  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  process.on('SIGHUP', () => void reload());
  for (let slot = 1; slot <= count; slot++) start(slot, false);
}
