import type { Database, Kysely } from '@directory/db';
import { initTRPC } from '@trpc/server';
import { type Credentials, isAuthorized } from './auth.ts';
import type { FeedServices } from './changes/feed.ts';
import { AppError, toAppError, unauthorized } from './errors.ts';
import type { Meta } from './meta.ts';
import type { QueueEvent } from './tasks/queue-signals.ts';

export interface Context {
  db: Kysely<Database>;
  /** The configured WEBHOOK_API_KEY. */
  apiKey: string;
  credentials: Credentials;
  /** Set by a transport when the request body could not be read as JSON. */
  bodyError?: string | undefined;
  /** Logs an unexpected error that is answered without a 500; returns its reference id. */
  reportError(err: unknown): string;
  /** Ends when the client goes away: a long-polling claim stops waiting. */
  signal?: AbortSignal | undefined;
  /** Counts queue events for /metrics. */
  count?: ((event: QueueEvent, n: number) => void) | undefined;
  /** The request's X-Directory-Actor header as sent (history/actor.ts reads it). */
  actor?: string | string[] | undefined;
  /** The change feed's long-poll signal and webhook settings (absent: polling, defaults). */
  feed?: FeedServices | undefined;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // tRPC clients get the same error type and details as REST callers, and never a stack.
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        message: appError.details[0] ?? appError.message,
        code: shape.code,
        data: { code: shape.data.code, httpStatus: appError.status, ...appError.body },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const requireKey = t.middleware(({ ctx, next }) => {
  if (!isAuthorized(ctx.credentials, ctx.apiKey)) throw unauthorized();
  return next();
});

// Runs after the key check: a body that cannot be parsed supplies no key (401 before 400).
const requireReadableBody = t.middleware(({ ctx, next }) => {
  if (ctx.bodyError) throw new AppError('VALIDATION', [`body: ${ctx.bodyError}`]);
  return next();
});

/** Reads of one record: no key. */
export const publicProcedure = t.procedure.use(requireReadableBody);
/** Everything else: the API key first, then the body, then the input schema. */
export const keyedProcedure = t.procedure.use(requireKey).use(requireReadableBody);
