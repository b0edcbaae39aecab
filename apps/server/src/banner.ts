/**
 * The one plain line a person at a terminal sees before the JSON logs: where the console and the
 * API docs are. Only when stdout is a terminal; a log collector (a pipe, a file) gets JSON only.
 */
export function startBanner(opts: {
  isTTY: boolean | undefined;
  host: string;
  port: number;
}): string | undefined {
  if (!opts.isTTY) return undefined;
  const base = `http://${browsableHost(opts.host)}:${opts.port}`;
  return `Console: ${base}/ · API docs: ${base}/api/docs`;
}

/** A wildcard bind address is reachable on loopback; an IPv6 address goes in brackets. */
function browsableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
