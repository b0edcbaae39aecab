// Errors of the connection rather than of a statement: the server is down, restarting,
// refusing connections, or the socket broke. SQLSTATE class 08 is "connection exception".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout, the server is overloaded
]);

/** True when an error says the database could not be reached, not that a statement failed. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return (
    typeof message === 'string' &&
    /connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(message)
  );
}
