import { createServer, type Server, STATUS_CODES } from 'node:http';
import { Server as NetServer } from 'node:net';
import { AppError } from '@directory/core/server';
import type express from 'express';

/** How long a request may take to arrive, and an idle connection to stay open. */
export interface HttpTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * Node's parser refuses a request target with raw non-ASCII bytes or spaces (curl sends
 * `?q=通义` as it is typed), even with insecureHTTPParser, before any route sees it; parsing such
 * a request line by hand would mean a second HTTP parser. So it is refused, saying how to send it.
 */
const INVALID_TARGET =
  'request: The URL must be ASCII: percent-encode other characters and spaces in the path and ' +
  "query (q=%E9%80%9A%E4%B9%89 for q=通义; curl -G --data-urlencode 'q=通义' <url>/api/projects does it)";

/**
 * The HTTP server of an app. Requests Node's parser refuses before they reach Express
 * (headers over its size limit, broken request lines) are answered in the envelope too.
 */
export function createHttpServer(app: express.Express, timeouts?: HttpTimeouts): Server {
  // Node looks for requests over their time every connectionsCheckingInterval (30 s by
  // default, coarser than the timeouts themselves).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, app);
  if (timeouts) {
    // A client that never finishes sending its request gets a 408 and loses the connection.
    server.requestTimeout = timeouts.requestTimeoutMs;
    server.headersTimeout = timeouts.headersTimeoutMs;
    server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  }
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const error =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('HEADERS_TOO_LARGE', ['headers: The request line and headers must be at most 16 KB'])
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new AppError('REQUEST_TIMEOUT', ['request: The request was not received in time'])
          : err.code === 'HPE_INVALID_URL'
            ? new AppError('VALIDATION', [INVALID_TARGET])
            : new AppError('VALIDATION', ['request: Malformed HTTP request']);
    const body = JSON.stringify(error.body);
    socket.end(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/**
 * Stops taking connections, and leaves the kept-alive ones to end as they would have: from now
 * on every answer says `Connection: close` and its connection closes after it, and one left idle
 * closes at the keep-alive timeout its client was told (`Keep-Alive: timeout=…`). Node's
 * `server.close()` closes the idle ones at once instead, and a request a client sends on one at
 * that moment meets a reset (docs/operating.md#reloads). Resolves once the last one has ended.
 */
export function retire(server: Server): Promise<void> {
  server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}
