import { createHash } from 'node:crypto';
import type { AppRouter, Meta } from '@directory/core';
import {
  AppError,
  headerKey,
  type InputShape,
  type KeyVerifier,
  type Principal,
  procedureInputShape,
  requireScope,
  toAppError,
  unauthorized,
} from '@directory/core/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { scanBody } from './body-scan.ts';
import { MAX_BODY_DEPTH } from './body-scan.types.ts';
import { stillValid } from './checked-body.ts';
import { type Outcome, type Policy, type RateLimits, rateLimitHeaders } from './rate-limit.ts';
import { bodyText, readBodyBytes } from './read-body.ts';
import { repeatedParameters } from './repeated-params.ts';
import { sendError } from './rest-adapter.ts';

/** A tRPC batch holds at most this many calls (more is 400; docs/keys-and-limits.md#rate-limiting). */
export const MAX_BATCH_CALLS = 10;

/** Whether a /trpc request is a batch, read as tRPC reads it: `batch=1`, nothing else. */
const isBatch = (req: Request) => req.query.batch === '1';

/**
 * The procedures a /trpc request calls, resolved as tRPC resolves them: the path's last segment
 * (`/trpc/x/keys.create` calls `keys.create`), percent-decoded, split at commas in a batch.
 */
export function trpcCalls(req: Request): string[] {
  const last = req.path.slice(req.path.lastIndexOf('/') + 1);
  let path: string;
  try {
    path = decodeURIComponent(last);
  } catch {
    return [last];
  }
  return isBatch(req) ? path.split(',') : [path];
}

/**
 * A refusal of a /trpc request before tRPC reads it, in tRPC's own error shape (the one the
 * router's errorFormatter gives), so that tRPC clients read it as they read any error: one
 * `{error}` per call of a batch, `{error}` alone otherwise. Status and envelope as REST's.
 */
export function sendTrpcError(req: Request, res: Response, err: AppError): void {
  const shape = {
    error: {
      message: err.details[0] ?? err.message,
      code: TRPC_ERROR_CODES_BY_KEY[err.code],
      data: { code: err.code, httpStatus: err.status, ...err.body },
    },
  };
  const batch = isBatch(req);
  const calls = batch ? trpcCalls(req).length : 1;
  res.status(err.status).json(batch ? Array.from({ length: calls }, () => shape) : shape);
}

/**
 * The key a request sent in a header, looked up once for the whole request (kept in
 * res.locals.principal: a Principal, or null for a wrong key; absent when none was sent).
 */
async function headerPrincipal(
  req: Request,
  res: Response,
  keys: KeyVerifier,
): Promise<Principal | null | undefined> {
  const known = knownHeaderPrincipal(req, res, keys);
  if (known !== LOOK_UP) return known;
  const principal = await keys.verify(headerKey(req.headers['x-api-key'], req.headers.authorization)!);
  res.locals.principal = principal;
  return principal;
}

const LOOK_UP = Symbol('the key needs a lookup');

/** headerPrincipal without a promise when the answer is known (no key, or a key seen lately). */
function knownHeaderPrincipal(
  req: Request,
  res: Response,
  keys: KeyVerifier,
): Principal | null | undefined | typeof LOOK_UP {
  if ('principal' in res.locals) return res.locals.principal as Principal | null;
  const sent = headerKey(req.headers['x-api-key'], req.headers.authorization);
  if (sent === undefined) return undefined;
  const known = sent === '' ? null : keys.verifyKnown?.(sent);
  if (known === undefined) return LOOK_UP;
  res.locals.principal = known;
  return known;
}

/** How many keys found valid lately a process remembers (the oldest forgotten first). */
const VALID_KEYS_REMEMBERED = 10_000;

/**
 * The keys found valid within the last rate-limit window, by digest: such a key is looked up
 * before anything is charged to its address, so that a valid key is never refused for its
 * address's budget (docs/keys-and-limits.md#rate-limiting), while an unknown key is still paid
 * for by its address before its lookup.
 */
class ValidLately {
  private readonly until = new Map<string, number>();
  constructor(private readonly windowMs: () => number) {}
  private digest = (key: string) => createHash('sha256').update(key).digest('base64url');
  has(key: string): boolean {
    const digest = this.digest(key);
    const until = this.until.get(digest);
    if (until === undefined) return false;
    if (until >= Date.now()) return true;
    this.until.delete(digest);
    return false;
  }
  add(key: string) {
    const digest = this.digest(key);
    this.until.delete(digest);
    this.until.set(digest, Date.now() + this.windowMs());
    if (this.until.size > VALID_KEYS_REMEMBERED) this.until.delete(this.until.keys().next().value!);
  }
}

/**
 * The rate limits (docs/keys-and-limits.md#rate-limiting), before anything else of a request: a request with a valid
 * key in a header counts against that key (its own limit, else RATE_LIMIT_KEY_PER_MINUTE),
 * any other against its client address (RATE_LIMIT_ANON_PER_MINUTE); each call of a tRPC batch
 * counts as one request, and a batch of more than 10 calls is refused first.
 */
export function rateLimitGate(options: {
  keys: KeyVerifier;
  limits: RateLimits;
  trpc?: boolean;
}): RequestHandler {
  const { keys, limits } = options;
  const validLately = new ValidLately(() => limits.config.windowMs);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      let calls = 1;
      if (options.trpc) {
        // what tRPC reads once: a repeated one would be counted as one thing and run as another
        const repeated = repeatedParameters(req.query, (name) => name === 'batch' || name === 'input');
        if (repeated) return sendTrpcError(req, res, repeated);
        calls = trpcCalls(req).length;
        if (calls > MAX_BATCH_CALLS)
          return sendTrpcError(
            req,
            res,
            new AppError('VALIDATION', [
              `batch: At most ${MAX_BATCH_CALLS} calls per request (got ${calls})`,
            ]),
          );
      }
      const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      /** Takes `calls` from `policy`'s budget: false (and the 429 sent) when it is spent. */
      const charge = (policy: Policy): boolean | Promise<boolean> => {
        const now = limits.takeNow(policy, calls);
        return now ? answer(policy, now) : limits.take(policy, calls).then((o) => answer(policy, o));
      };
      const answer = (policy: Policy, outcome: Outcome): boolean => {
        for (const [name, value] of Object.entries(rateLimitHeaders(policy, outcome)))
          res.setHeader(name, value);
        if (outcome.allowed) return true;
        res.setHeader('Retry-After', String(outcome.resetSeconds));
        const per = policy.name === 'key' ? 'API key' : 'client address';
        (options.trpc ? (e: AppError) => sendTrpcError(req, res, e) : (e: AppError) => sendError(res, e))(
          new AppError('RATE_LIMITED', [
            `Rate limit exceeded: at most ${policy.requests} requests per ${policy.windowSeconds} s per ${per}; retry after the time in the Retry-After header`,
          ]),
        );
        return false;
      };
      // no promise on the way of a request whose key and lease are at hand
      const known = knownHeaderPrincipal(req, res, keys);
      let principal: Principal | null | undefined;
      if (known === LOOK_UP) {
        // A key this process has not found valid lately is paid for by its address before it is
        // looked up: guessing keys costs the guesser, and an address over its budget costs no
        // lookup. A key found valid within the window is looked up first, and never refused for
        // its address's budget.
        const sent = headerKey(req.headers['x-api-key'], req.headers.authorization)!;
        const anon = limits.policyOf(null, address);
        const trusted = validLately.has(sent);
        if (anon && !trusted && !(await charge(anon))) return;
        principal = await headerPrincipal(req, res, keys);
        if (principal) validLately.add(sent);
        // a wrong key is counted as what it is: a request of that address
        else if (anon) {
          if (trusted && !(await charge(anon))) return;
          return next();
        }
      } else principal = known;
      const policy = limits.policyOf(principal, address);
      if (!policy) return next();
      // no promise when this process's lease answers
      const allowed = charge(policy);
      if (allowed === true || (allowed !== false && (await allowed))) next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * /trpc before tRPC reads anything (docs/keys-and-limits.md#bodies): a keyed call without a key
 * in a header (tRPC reads no key from a body: 401), with a wrong key (401) or a key that lacks
 * its scope (403) is refused before the body is read; then the body is read within the size
 * limit (413), its key checked again (a revoke while it arrived: 401), scanned to a nesting depth
 * of 64 and every array against the schema's maximum (400), and handed to tRPC as text.
 */
export function trpcGate(options: {
  router: AppRouter;
  keys: KeyVerifier;
  bodyLimitBytes: number;
}): RequestHandler {
  const procedures = options.router._def.procedures as unknown as Record<
    string,
    { _def: { meta?: Meta; inputs?: unknown[] } }
  >;
  const shapes = new Map<string, InputShape | undefined>();
  const shapeOf = (call: string) => {
    if (!shapes.has(call) && procedures[call]) shapes.set(call, procedureInputShape(procedures[call]));
    return shapes.get(call);
  };
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const calls = trpcCalls(req);
      const scopes = calls.flatMap((call) => {
        const scope = procedures[call]?._def.meta?.scope;
        return scope === undefined ? [] : [scope];
      });
      const principal = await headerPrincipal(req, res, options.keys);
      if (scopes.length > 0 && (principal !== undefined || req.method === 'POST')) {
        if (!principal) throw unauthorized();
        for (const scope of scopes) requireScope(principal, scope);
      }
      if (req.method === 'POST') {
        const bytes = await readBodyBytes(req, options.bodyLimitBytes);
        if (bytes === undefined)
          throw new AppError('PAYLOAD_TOO_LARGE', [`body: Must be at most ${options.bodyLimitBytes} bytes`]);
        const sent = headerKey(req.headers['x-api-key'], req.headers.authorization);
        if (principal && sent !== undefined) await stillValid(options.keys, sent);
        const shape: InputShape | undefined = isBatch(req)
          ? {
              array: false,
              properties: Object.fromEntries(
                calls.map((call, i) => [String(i), shapeOf(call) ?? { array: true }]),
              ),
            }
          : shapeOf(calls[0] ?? '');
        const scan = scanBody(bytes, shape, { needKey: false });
        if (scan.kind === 'too-deep')
          throw new AppError('VALIDATION', [
            `body: Must not nest arrays and objects deeper than ${MAX_BODY_DEPTH} levels`,
          ]);
        if (scan.tooLong !== undefined) throw new AppError('VALIDATION', [scan.tooLong]);
        // tRPC takes a string body as the body's text (and parses it once)
        const text = bodyText(bytes);
        (req as { body?: unknown }).body = text === '' ? undefined : text;
      }
      next();
    } catch (err) {
      sendTrpcError(req, res, toAppError(err));
    }
  };
}

/** /metrics: a key with `metrics:read` unless METRICS_PUBLIC=1 (docs/operating.md#metrics-get-metrics). */
export function metricsGate(options: { keys: KeyVerifier; public: boolean }): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (options.public) return next();
    try {
      const principal = await headerPrincipal(req, res, options.keys);
      if (!principal) throw unauthorized();
      requireScope(principal, 'metrics:read');
      next();
    } catch (err) {
      sendError(res, toAppError(err));
    }
  };
}
