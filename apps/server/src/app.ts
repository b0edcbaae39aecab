import { randomUUID } from 'node:crypto';
import { AppError, appRouter, readCredentials } from '@directory/core';
import { type Database, type Kysely, sql } from '@directory/db';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { describeError, type Logger } from './logger.ts';
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
      }),
      maxBodySize: bodyLimitBytes,
    }),
  );

  app.use((req: Request, res: Response) => {
    sendError(res, new AppError('NOT_FOUND', [`No route for ${req.method} ${req.path}`]));
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    // Express refuses a path it cannot decode (a broken %-escape) with a 400 of its own.
    if ((err as { status?: unknown }).status === 400) {
      return sendError(
        res,
        new AppError('VALIDATION', [`path: Malformed URL encoding in ${req.method} request path`]),
      );
    }
    const requestId = randomUUID();
    logger.error({ requestId, error: describeError(err) }, 'unhandled error');
    sendError(res, new AppError('INTERNAL', [`An unexpected error occurred (request id ${requestId})`]));
  });
  return app;
}
