import { appRouter } from '@directory/core';
import {
  AppError,
  type FeedServices,
  headerKey,
  KeyStore,
  type Principal,
  type QueueEvent,
  ReadModel,
  readCredentials,
  toAppError,
  WEBHOOK_DEFAULTS,
} from '@directory/core/server';
import type { Database, Kysely, ReadSources } from '@directory/db';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type pg from 'pg';
import { docsRouter } from './docs.ts';
import { healthHandler } from './health.ts';

export { createHttpServer, type HttpTimeouts } from './http-server.ts';

import { exportRouter } from './export-route.ts';
import { describeError, type Logger, reportError } from './logger.ts';
import { createMetrics, type PoolStats } from './metrics.ts';
import { type RateLimitConfig, RateLimits } from './rate-limit.ts';
import { MAX_BATCH_CALLS, metricsGate, rateLimitGate, trpcGate } from './request-gate.ts';
import { requestId } from './request-id.ts';
import { requestLog } from './request-log.ts';
import { requestSignal, restRouter, sendError } from './rest-adapter.ts';
import type { SharedSettings } from './shared-settings.ts';
import { trustProxySetting } from './trust-proxy.ts';
import { webConsoleRouter } from './web.ts';
import { createPoster } from './webhooks/post.ts';

export interface AppOptions {
  /** The primary. */
  db: Kysely<Database>;
  /** DATABASE_READ_URL's standbys and where reads go now (docs/operating.md#standbys). */
  reads?: ReadSources | undefined;
  /** The database pool, for the pool gauges of /metrics. */
  pool?: PoolStats;
  /**
   * The bootstrap key (WEBHOOK_API_KEY or the generated one): every scope. Absent: none (a
   * PostgreSQL deployment whose keys are all in the database); then `secret` is required.
   */
  apiKey?: string | undefined;
  /**
   * The secret that signs cursors; every process of a deployment shares it. serve.ts passes the
   * database's random one (api-key.ts resolveKeys); tools and tests may leave it to default to apiKey.
   */
  secret?: string | undefined;
  /** METRICS_PUBLIC=1: /metrics needs no key. */
  metricsPublic?: boolean | undefined;
  /** PostgreSQL's pool: rate-limit counts are shared by every process. Absent: counted in this one. */
  rateLimitPool?: pg.Pool | undefined;
  logger: Logger;
  bodyLimitBytes: number;
  /** The default limits (0: none); a key with a limit of its own is limited whatever these say. */
  rateLimit?: RateLimitConfig;
  /** Express's "trust proxy" setting (TRUST_PROXY). */
  trustProxy?: string | undefined;
  /** The change feed's long-poll signal (ChangeSignal); absent: polling. */
  feed?: FeedServices | undefined;
  /** WEBHOOK_ALLOW_PRIVATE (default false). */
  allowPrivateWebhookTargets?: boolean | undefined;
  /** WEBHOOK_TIMEOUT_MS: a redelivery's or a ping's POST (default WEBHOOK_DEFAULTS.timeoutMs). */
  webhookTimeoutMs?: number | undefined;
  /**
   * This process's read model. Absent: the app makes one and starts it (tests, tools); main.ts
   * passes its own so that it can size its cache and stop it.
   */
  readModel?: ReadModel | undefined;
  /** RESPONSE_CACHE_MB in bytes (default 32 MiB; 0 keeps no answers). */
  responseCacheBytes?: number | undefined;
  /** What every process must share (serve.ts), answered by `GET /healthz?verbose=1`. */
  sharedSettings?: SharedSettings | undefined;
  /** The web console's build directory (default apps/web/dist); false serves no console. */
  webDir?: string | false;
}

const readModels = new WeakMap<express.Express, ReadModel>();

/** The read model an app serves from (tests wait for it, stop it). */
export function readModelOf(app: express.Express): ReadModel {
  const model = readModels.get(app);
  if (!model) throw new Error('not an app of createApp');
  return model;
}

function startedReadModel(db: Kysely<Database>, feed: FeedServices | undefined, logger: Logger): ReadModel {
  const model = new ReadModel({
    db,
    feed,
    warn: (message, err) => logger.warn({ error: describeError(err) }, message),
  });
  void model.start();
  return model;
}

const queueCounters = new WeakMap<express.Express, (event: QueueEvent, n: number) => void>();

/** Counts a queue event of this app on its /metrics (the reaper runs beside the app). */
export function queueCounter(app: express.Express): (event: QueueEvent, n: number) => void {
  return queueCounters.get(app) ?? (() => {});
}

export function createApp(options: AppOptions): express.Express {
  const { db, apiKey, logger, bodyLimitBytes } = options;
  const secret = options.secret ?? apiKey;
  if (secret === undefined) throw new Error('createApp: a bootstrap key or a secret is required');
  const keys = new KeyStore({
    db,
    bootstrap: apiKey,
    warn: (message, err) => logger.warn({ error: describeError(err) }, message),
  });
  const limits = new RateLimits({
    config: options.rateLimit ?? { windowMs: 60_000, perAddress: 0, perKey: 0 },
    pool: options.rateLimitPool,
    warn: (message, err) => logger.warn({ error: describeError(err) }, message),
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', trustProxySetting(options.trustProxy));

  const readModel = options.readModel ?? startedReadModel(db, options.feed, logger);
  readModels.set(app, readModel);
  const metrics = createMetrics({ db, pool: options.pool, logger, readModel, reads: options.reads, keys });
  queueCounters.set(app, metrics.countQueue);
  // no answer is read as another type than it says (docs/getting-started.md#rest-the-openapi-document-and-the-docs-page)
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(requestId(logger));
  // One listener per request for both the request log line and the metrics.
  app.use(requestLog(logger, metrics.record));

  // Counted like any request, and behind metrics:read unless METRICS_PUBLIC=1
  // (docs/operating.md#metrics-get-metrics)
  app.get(
    '/metrics',
    rateLimitGate({ keys, limits }),
    metricsGate({ keys, public: options.metricsPublic === true }),
    metrics.handler,
  );

  app.get(
    '/healthz',
    healthHandler({ db, readModel, reads: options.reads, sharedSettings: options.sharedSettings }),
  );

  // redeliver and ping send at once, for their request (the dispatcher has its own)
  const sendWebhook = createPoster({
    allowPrivateTargets: options.allowPrivateWebhookTargets ?? false,
    timeoutMs: options.webhookTimeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
  }).post;

  const rateLimited = (options.rateLimit?.perAddress ?? 0) > 0 || (options.rateLimit?.perKey ?? 0) > 0;
  // The OpenAPI document and the reference page that shows it (static: not rate limited).
  app.use(docsRouter({ rateLimited }));
  app.use('/api', rateLimitGate({ keys, limits }));
  app.use(
    '/trpc',
    rateLimitGate({ keys, limits, trpc: true }),
    trpcGate({ router: appRouter, keys, bodyLimitBytes }),
  );

  // streamed, so not a procedure: GET /api/export (docs/api.md#export-get-apiexport)
  app.use(exportRouter({ db, keys }));
  app.use(
    restRouter({
      router: appRouter,
      db,
      apiKey: secret,
      keys,
      bodyLimitBytes,
      count: metrics.countQueue,
      feed: options.feed,
      allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
      sendWebhook,
      reads: options.reads,
      readModel,
      responseCacheBytes: options.responseCacheBytes,
    }),
  );

  // Internal tools: the same procedures over tRPC, key in the x-api-key header.
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => ({
        db,
        apiKey: secret,
        keys,
        principal: (res.locals.principal as Principal | null | undefined) ?? undefined,
        credentials: readCredentials(
          headerKey(req.headers['x-api-key'], req.headers.authorization),
          undefined,
        ),
        actor: req.headers['x-directory-actor'],
        summary: req.headers['x-directory-summary'],
        ifMatch: req.headers['if-match'],
        reportError: (err: unknown) => reportError(res.locals, err, { route: `tRPC ${req.path}` }),
        signal: requestSignal(res),
        count: metrics.countQueue,
        feed: options.feed,
        allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
        sendWebhook,
        reads: options.reads,
        readModel,
        setHeader: (name: string, value: string) => {
          if (!res.headersSent) res.setHeader(name, value);
        },
      }),
      onError: ({ error, path, req }) => {
        if (toAppError(error).kind === 'INTERNAL' && req.res)
          reportError(req.res.locals, error, { route: `tRPC ${path ?? ''}` });
      },
      maxBodySize: bodyLimitBytes,
      // at most 10 calls a batch (the rate-limit gate refuses a longer one first, in the envelope)
      maxBatchSize: MAX_BATCH_CALLS,
    }),
  );

  // The web console at `/`, after every API route so that none of them can be shadowed (web.ts).
  if (options.webDir !== false) app.use(webConsoleRouter(options.webDir));

  app.use((req: Request, res: Response) => {
    sendError(res, new AppError('NOT_FOUND', [`No route for ${req.method} ${req.path}`]));
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // A client that went away mid-request: nobody is left to answer.
    if (req.destroyed || res.headersSent) {
      res.locals.log.info(
        { method: req.method, path: req.path, error: describeError(err) },
        'request abandoned',
      );
      return;
    }
    // Express refuses a path it cannot decode (a broken %-escape) with a 400 of its own.
    if ((err as { status?: unknown }).status === 400) {
      return sendError(
        res,
        new AppError('VALIDATION', [`path: Malformed URL encoding in ${req.method} request path`]),
      );
    }
    const reference = reportError(res.locals, err, { route: `${req.method} ${req.path}` });
    sendError(res, new AppError('INTERNAL', [`An unexpected error occurred (request id ${reference})`]));
  });
  return app;
}
