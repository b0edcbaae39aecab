import { hostname } from 'node:os';
import pino from 'pino';
import { processSlot } from './cluster-metrics.ts';

export type Logger = pino.Logger;

/**
 * JSON lines on stdout (docs/operating.md#logs): the level by name, the time, and on every line
 * the host, the pid and, of several processes on one port, which one (`process`: its slot, or
 * `primary`). Nothing logged carries a key: request logs hold the path, never the query or
 * headers, and the key's name, never the key.
 */
export function createLogger(level: string): Logger {
  const slot = processSlot();
  // Synchronous writes: the asynchronous destination's exit-time flush retries EPIPE forever,
  // so a server whose stdout reader has gone (`… | head`) would never finish shutting down.
  return pino(
    {
      level,
      base: { host: hostname(), pid: process.pid, ...(slot !== undefined && { process: slot }) },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * What may be logged of an unexpected error: the kind, code and message of its root cause
 * (the wrappers add nothing), never a stack or the SQL text.
 */
export function describeError(err: unknown): Record<string, unknown> {
  let root = err;
  while (root instanceof Error && root.cause !== undefined) root = root.cause;
  if (!(root instanceof Error)) return { type: typeof root };
  const code = (root as { code?: unknown }).code;
  return { type: root.name, message: root.message, ...(typeof code === 'string' && { code }) };
}

/** A request's logger (every line carries its request id) and that id. */
export interface RequestLog {
  log: Logger;
  requestId: string;
}

/** Logs an unexpected error with what may be logged of it; returns the request id, the reference for the reply. */
export function reportError(request: RequestLog, err: unknown, fields: Record<string, unknown> = {}): string {
  request.log.error({ ...fields, error: describeError(err) }, 'unexpected error');
  return request.requestId;
}
