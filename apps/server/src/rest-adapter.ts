import {
  type AppRouter,
  type Context,
  createCallerFactory,
  type Meta,
  POSITION_HEADER,
} from '@directory/core';
import {
  AppError,
  bootstrapVerifier,
  etagOf,
  type FeedServices,
  headerKey,
  type InputShape,
  type KeyVerifier,
  type Principal,
  procedureInputShape,
  type ReadModel,
  readCredentials,
  renderJson,
  toAppError,
} from '@directory/core/server';
import type { Database, Kysely, ReadRouting } from '@directory/db';
import { type Request, type Response, Router } from 'express';
import { checkHeaderKey, readCheckedBody } from './checked-body.ts';
import { reportError } from './logger.ts';
import { movedHere } from './moved.ts';
import { repeatedParameters } from './repeated-params.ts';
import { ResponseCache } from './response-cache.ts';
import { methodNotAllowed, sendError } from './send-error.ts';

export { methodNotAllowed, sendError };

export interface RestOptions {
  router: AppRouter;
  db: Kysely<Database>;
  apiKey: string;
  /** Resolves keys (named and bootstrap); absent: only the bootstrap key `apiKey`. */
  keys?: KeyVerifier | undefined;
  bodyLimitBytes: number;
  /** Counts queue events for /metrics. */
  count?: Context['count'];
  /** The change feed's long-poll signal. */
  feed?: FeedServices | undefined;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivateWebhookTargets?: boolean | undefined;
  /** Sends a webhook message now (redeliver, ping). */
  sendWebhook?: Context['sendWebhook'];
  /** This process's read model (the reads of projects and tags). */
  /** Where reads go (standbys or the primary; docs/operating.md#standbys); absent: `db`. */
  reads?: ReadRouting | undefined;
  readModel?: ReadModel | undefined;
  /** The response cache's budget in bytes (default 32 MiB; 0: none). */
  responseCacheBytes?: number | undefined;
}

interface Route {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Express form of the OpenAPI path: `{slug}` → `:slug`. */
  path: string;
  procedure: string;
  /** meta.nextLink: the output field that holds the next page's cursor, and its parameter. */
  nextLink?: Meta['nextLink'];
  /** meta.readsModel: its answers may be kept in the response cache while the model does not change. */
  readsModel?: true;
  /** meta.bodyInput: a DELETE that takes its input from its body. */
  bodyInput?: true;
  /** meta.scope: the route takes a key, checked (when sent in a header) before the body is read. */
  scope?: Meta['scope'];
  /** meta.created: 201 instead of 200. */
  created?: true;
  /** What its input may hold (array maxima, which parameters are lists): checked before parsing. */
  shape?: InputShape | undefined;
}

/**
 * One route per procedure that declares `meta.openapi`: its method and exact path. Paths with
 * fewer parameters come first, so a fixed segment (`/api/projects/duplicates`) is matched before
 * a parameter in its place (`/api/projects/{slug}`).
 */
function routesOf(router: AppRouter): Route[] {
  const procedures = router._def.procedures as unknown as Record<string, Procedure>;
  const params = (route: Route) => route.path.split(':').length;
  return routesIn(procedures).sort((a, b) => params(a) - params(b));
}

type Procedure = { _def: { meta?: Meta; inputs?: unknown[] } };

function routesIn(procedures: Record<string, Procedure>): Route[] {
  return Object.entries(procedures).flatMap(([procedure, def]) => {
    const openapi = def._def.meta?.openapi;
    if (!openapi) return [];
    const method = openapi.method.toLowerCase() as Route['method'];
    const nextLink = def._def.meta?.nextLink;
    const readsModel = def._def.meta?.readsModel;
    const bodyInput = def._def.meta?.bodyInput;
    const scope = def._def.meta?.scope;
    const created = def._def.meta?.created;
    return [
      {
        method,
        path: openapi.path.replace(/\{(\w+)\}/g, ':$1'),
        procedure,
        ...(nextLink && { nextLink }),
        ...(readsModel && { readsModel }),
        ...(bodyInput && { bodyInput }),
        ...(scope && { scope }),
        ...(created && { created }),
        shape: procedureInputShape(def),
      },
    ];
  });
}

type Call = (input: unknown) => Promise<unknown>;

/** `caller['tasks']['get']`: a procedure of a tRPC caller by its dotted path. */
function procedureOf(caller: unknown, path: string): Call {
  return path.split('.').reduce((node, key) => (node as Record<string, unknown>)[key], caller) as Call;
}

/** Whether a request of this method has its body read (a DELETE body may carry apiKey); GET's is ignored. */
export const readsBody = (method: string): boolean => method.toLowerCase() !== 'get';

/** Aborts when the connection closes before the response is finished (the client went away). */
export function requestSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * A GET's 200 with a weak ETag of its body; `If-None-Match` naming it answers 304 without one
 * (a client polling a project or a page it has pays no body while nothing changed).
 */
function sendWithEtag(req: Request, res: Response, output: unknown): { body: Buffer; etag: string } {
  // the bytes of JSON.stringify(output), written from the parts kept rendered (render-json.ts)
  const body = renderJson(output);
  const etag = etagOf(body);
  sendBody(req, res, body, etag);
  return { body, etag };
}

function sendBody(req: Request, res: Response, body: Buffer, etag: string): void {
  res.setHeader('ETag', etag);
  const given = req.headers['if-none-match'];
  if (given?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/json; charset=utf-8').send(body);
}

/** `<this request with param=value>; rel="next"` (RFC 8288; the URL relative to the host). */
function nextLinkHeader(req: Request, param: string, value: string): string {
  const url = new URL(req.originalUrl, 'http://host');
  url.searchParams.set(param, value);
  return `<${url.pathname}${url.search}>; rel="next"`;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The REST face of the procedures. Generic: it knows nothing of any endpoint. Per request it
 * reads the body (413 first), builds the input from body or query plus path parameters,
 * calls the procedure through createCaller (which checks the key, then validates, then runs
 * the domain), and writes the envelope. A known path with another method is a 405.
 */
export function restRouter(options: RestOptions): Router {
  const { db, apiKey, bodyLimitBytes } = options;
  const keys = options.keys ?? bootstrapVerifier(apiKey);
  const createCaller = createCallerFactory(options.router);
  const rest = Router();
  const routes = routesOf(options.router);
  const cacheBytes = options.responseCacheBytes ?? 32 * 1024 * 1024;
  const answers = new ResponseCache(cacheBytes);
  const model = options.readModel;

  for (const route of routes) {
    // GET and DELETE take their input from the query (a DELETE body may still carry apiKey),
    // but for a DELETE that declares its body its input (meta.bodyInput).
    const inputFromQuery = route.method === 'get' || (route.method === 'delete' && !route.bodyInput);
    const routeName = `${route.method.toUpperCase()} ${route.path}`;
    rest[route.method](route.path, async (req: Request, res: Response) => {
      // A read of the model asked again while the model has not changed: the kept answer, taken
      // in a turn of the reads (read-model/turns.ts) as a fresh answer's work is (ReadModel.read),
      // so that however many clients read, writes and /healthz get the event loop between turns.
      // (minPosition may have to wait: such reads go the whole way.)
      const cacheKey =
        cacheBytes > 0 && route.readsModel && model?.ready && req.query.minPosition === undefined
          ? req.originalUrl
          : undefined;
      const version = model?.version ?? 0;
      if (cacheKey !== undefined && model) {
        const kept = await model.inTurn(() => answers.get(cacheKey, model.version));
        if (kept) {
          res.setHeader(POSITION_HEADER, model.positionHeader);
          if (kept.link) res.setHeader('Link', kept.link);
          return sendBody(req, res, kept.body, kept.etag);
        }
      }
      const sentKey = headerKey(req.headers['x-api-key'], req.headers.authorization);
      // a key sent in a header is checked (401, then 403) before the body is read
      const principal = await checkHeaderKey({
        scope: route.scope,
        headerKey: sentKey,
        // a declared length over the limit is still a 413 first
        tooLarge: readsBody(route.method) && Number(req.headers['content-length']) > bodyLimitBytes,
        // the rate limit (request-gate.ts) may have looked the key up already
        known: res.locals.principal as Principal | null | undefined,
        keys,
      });
      if (principal instanceof AppError) return sendError(res, principal);
      const single = (name: string) => inputFromQuery && route.shape?.properties?.[name]?.array === false;
      const repeated = repeatedParameters(req.query, single);
      if (repeated) return sendError(res, repeated);
      const body = readsBody(route.method)
        ? await readCheckedBody(req, {
            limit: bodyLimitBytes,
            shape: route.shape,
            keys,
            scope: route.scope,
            headerKey: sentKey,
            principal,
          })
        : { principal, value: undefined, bodyError: undefined };
      if (body instanceof AppError) return sendError(res, body);
      const value = body.value;
      const ctx: Context = {
        db,
        apiKey,
        credentials: readCredentials(sentKey, value),
        keys,
        principal: body.principal,
        actor: req.headers['x-directory-actor'],
        summary: req.headers['x-directory-summary'],
        ifMatch: req.headers['if-match'],
        bodyError: body.bodyError,
        reportError: (err) => reportError(res.locals, err, { route: routeName }),
        signal: requestSignal(res),
        count: options.count,
        feed: options.feed,
        allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
        sendWebhook: options.sendWebhook,
        reads: options.reads,
        readModel: options.readModel,
        setHeader: (name, value) => res.setHeader(name, value),
      };
      const fields = inputFromQuery ? { ...req.query } : isObject(value) ? value : {};
      try {
        const output = await procedureOf(createCaller(ctx), route.procedure)({ ...fields, ...req.params });
        const next = route.nextLink && isObject(output) ? output[route.nextLink.field] : undefined;
        const link =
          route.nextLink && typeof next === 'string'
            ? nextLinkHeader(req, route.nextLink.param, next)
            : undefined;
        if (link) res.setHeader('Link', link);
        if (route.method === 'get') {
          const sent = sendWithEtag(req, res, output);
          // kept only if the model did not change while it was computed
          if (cacheKey !== undefined && model?.version === version)
            answers.set(cacheKey, { version, link, ...sent });
          return;
        }
        res.status(route.created ? 201 : 200).json(output);
      } catch (err) {
        const error = toAppError(err, inputFromQuery ? 'query' : 'body');
        if (error.kind === 'INTERNAL') {
          const requestId = reportError(res.locals, error, { route: routeName });
          return sendError(
            res,
            new AppError('INTERNAL', [`An unexpected error occurred (request id ${requestId})`]),
          );
        }
        sendError(res, movedHere(req, route.path, error));
      }
    });
  }

  for (const path of new Set(routes.map((r) => r.path))) {
    const allowed = routes.filter((r) => r.path === path).map((r) => r.method.toUpperCase());
    rest.all(path, methodNotAllowed(allowed));
  }
  return rest;
}
