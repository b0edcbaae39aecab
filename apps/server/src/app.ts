import { createServer, type Server, STATUS_CODES } from 'node:http';
import { AppError, appRouter, readCredentials, toAppError } from '@directory/core';
import { type Database, type Kysely, sql } from '@directory/db';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { docsRouter } from './docs.ts';
import { describeError, type Logger, reportError } from './logger.ts';
import { restRouter, sendError } from './rest-adapter.ts';

export interface AppOptions {
  db: Kysely<Database>;
  apiKey: string;
  logger: Logger;
  bodyLimitBytes: number;
}

export function createApp(options: AppOptions): express.Express {
  const { db, apiKey, logger, bodyLimitBytes } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  });

  app.get('/healthz', async (_req: Request, res: Response) => {
    try {
      await sql`select 1`.execute(db);
      res.json({ success: true, status: 'ok' });
    } catch (err) {
      logger.warn({ error: describeError(err) }, 'health check failed');
      sendError(res, new AppError('UNAVAILABLE', ['The database is not reachable']));
    }
  });

  // The OpenAPI document and the reference page that shows it.
  app.use(docsRouter());

  app.use(restRouter({ router: appRouter, db, apiKey, logger, bodyLimitBytes }));

  // Internal tools: the same procedures over tRPC, key in the x-api-key header.
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req }) => ({
        db,
        apiKey,
        credentials: readCredentials(req.headers['x-api-key'], undefined),
        reportError: (err: unknown) => reportError(logger, err, { route: `tRPC ${req.path}` }),
      }),
      onError: ({ error, path }) => {
        if (toAppError(error).kind === 'INTERNAL')
          reportError(logger, error, { route: `tRPC ${path ?? ''}` });
      },
      maxBodySize: bodyLimitBytes,
    }),
  );

  app.use((req: Request, res: Response) => {
    sendError(res, new AppError('NOT_FOUND', [`No route for ${req.method} ${req.path}`]));
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // A client that went away mid-request: nobody is left to answer.
    if (req.destroyed || res.headersSent) {
      logger.info({ method: req.method, path: req.path, error: describeError(err) }, 'request abandoned');
      return;
    }
    // Express refuses a path it cannot decode (a broken %-escape) with a 400 of its own.
    if ((err as { status?: unknown }).status === 400) {
      return sendError(
        res,
        new AppError('VALIDATION', [`path: Malformed URL encoding in ${req.method} request path`]),
      );
    }
    const requestId = reportError(logger, err, { route: `${req.method} ${req.path}` });
    sendError(res, new AppError('INTERNAL', [`An unexpected error occurred (request id ${requestId})`]));
  });
  return app;
}

/**
 * The HTTP server of an app. Requests Node's parser refuses before they reach Express
 * (headers over its size limit, broken request lines) are answered in the envelope too.
 */
export function createHttpServer(app: express.Express): Server {
  const server = createServer(app);
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const error =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('HEADERS_TOO_LARGE', ['headers: The request line and headers must be at most 16 KB'])
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
