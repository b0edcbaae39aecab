import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout. Nothing logged carries a key: request logs hold the path, never the query or headers. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

/** What may be logged of an unexpected error: its kind and message, no stack, no SQL. */
export function describeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const code = (err as { code?: unknown }).code;
  return { type: err.name, message: err.message, ...(typeof code === 'string' && { code }) };
}
