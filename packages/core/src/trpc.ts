import type { Database, Kysely, ReadRouting } from '@directory/db';
import { initTRPC } from '@trpc/server';
import {
  authenticate,
  bootstrapVerifier,
  type Credentials,
  type KeyVerifier,
  type Principal,
  requireScope,
} from './auth.ts';
import type { FeedServices } from './changes/feed.ts';
import { summaryOf } from './domain/summary.ts';
import type { WebhookAnswer } from './domain/webhook-exchange.ts';
import { AppError, toAppError } from './errors.ts';
import type { Meta } from './meta.ts';
import { encodePosition, type ReadModel } from './read-model/read-model.ts';
import type { QueueEvent } from './services/queue-signals.ts';
import { requestKey, requestSummary } from './services/request-key.ts';
import { RequestWrites } from './transaction.ts';

/**
 * The response header that tells which point of the change feed an answer reflects
 * (docs/search.md#how-it-is-served-a-read-model-in-every-process).
 */
export const POSITION_HEADER = 'X-Directory-Position';

export interface Context {
  /** The primary: writes, the queue, keys, webhooks, and every read that must see them. */
  db: Kysely<Database>;
  /**
   * Where reads of projects, history, tags and the feed go (DATABASE_READ_URL's standbys, or
   * the primary: docs/operating.md#standbys); absent: `db`. See `readDbOf`.
   */
  reads?: ReadRouting | undefined;
  /**
   * The secret that signs cursors (the server's: random, kept in its database); a transport
   * without `keys` also takes it as the one key it knows, with every scope
   * (docs/keys-and-limits.md#named-keys-and-scopes).
   */
  apiKey: string;
  credentials: Credentials;
  /** Resolves named keys (and the bootstrap key); absent: only the bootstrap key is known. */
  keys?: KeyVerifier | undefined;
  /**
   * Who the request is, when its transport already checked its header key (before reading the
   * body); the keyed middleware then checks only the body's key against it.
   */
  principal?: Principal | undefined;
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
  /** The request's X-Directory-Summary header as sent (domain/summary.ts reads it). */
  summary?: string | string[] | undefined;
  /** The request's If-Match header (PATCH /api/projects/{slug}: 412 when the project changed since). */
  ifMatch?: string | undefined;
  /** The change feed's long-poll signal (absent: polling). */
  feed?: FeedServices | undefined;
  /** WEBHOOK_ALLOW_PRIVATE: webhooks may target loopback and private addresses (default false). */
  allowPrivateWebhookTargets?: boolean | undefined;
  /**
   * POSTs a signed webhook message now and resolves to what the target answered (its body bounded,
   * domain/webhook-exchange.ts); rejects when it cannot be reached, is refused as private or does
   * not answer in time (a WebhookSendError carries what came back before): redeliver and ping.
   */
  sendWebhook?:
    | ((url: string, body: string, headers: Record<string, string>) => Promise<WebhookAnswer>)
    | undefined;
  /** This process's read model: the reads of projects and tags come from it. */
  readModel?: ReadModel | undefined;
  /**
   * What this request committed (transaction.ts): given to every write procedure by ownWrites
   * below, which applies it to the read model before the answer; each procedure passes it to
   * inTransaction (`inTransaction(ctx, …)`), and an upsert adds the rows it wrote. Absent: the
   * writes are not recorded (no read model, or a query).
   */
  writes?: RequestWrites | undefined;
  /** Sets a response header (X-Directory-Position); transports without headers leave it out. */
  setHeader?: ((name: string, value: string) => void) | undefined;
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

/**
 * The key check (docs/keys-and-limits.md#named-keys-and-scopes): 401 for no, an unknown, expired or
 * revoked key (or two keys that differ), 403 for a valid key without the scope the procedure declares in
 * its meta. A keyed procedure without a declared scope is a mistake of the code, never an open door.
 */
export const requireKey = t.middleware(async ({ ctx, meta, next }) => {
  const scope = meta?.scope;
  if (scope === undefined) throw new AppError('INTERNAL', ['A keyed procedure declares no scope']);
  const principal =
    ctx.principal && ctx.credentials.body === undefined
      ? ctx.principal
      : await authenticate(ctx.credentials, ctx.keys ?? bootstrapVerifier(ctx.apiKey));
  requireScope(principal, scope);
  const summary = summaryOf(ctx);
  return requestKey.run(principal, () => requestSummary.run(summary, () => next({ ctx: { principal } })));
});

// Runs after the key check: a body that cannot be parsed supplies no key (401 before 400).
const requireReadableBody = t.middleware(({ ctx, next }) => {
  if (ctx.bodyError) throw new AppError('VALIDATION', [`body: ${ctx.bodyError}`]);
  return next();
});

/**
 * A write is visible to the reads of the process that answered it before its answer is sent
 * (docs/search.md#how-it-is-served-a-read-model-in-every-process): the changes of the transactions it
 * committed (the record `ctx.writes` it hands the procedure) are applied to the read model first, and the
 * answer carries the position just after them.
 * Applying is best effort: if it fails, the change feed brings the same changes moments later.
 */
const ownWrites = t.middleware(async ({ ctx, next, type }) => {
  if (type !== 'mutation' || !ctx.readModel) return next();
  const writes = new RequestWrites();
  try {
    return await next({ ctx: { writes } });
  } finally {
    if (writes.xids.length > 0) {
      try {
        await ctx.readModel.applyOwn(writes);
      } catch {
        // the follower applies them from the feed
      }
      let last = 0n;
      for (const xid of writes.xids) if (BigInt(xid) > last) last = BigInt(xid);
      ctx.setHeader?.(POSITION_HEADER, encodePosition(last + 1n));
    }
  }
});

/** Reads of one record: no key. */
export const publicProcedure = t.procedure.use(requireReadableBody);
/**
 * Everything else: the API key and the scope its meta declares (`scope`) first, then the
 * body, then the input schema.
 */
export const keyedProcedure = t.procedure.use(requireKey).use(requireReadableBody).use(ownWrites);

/**
 * The database a read that the read model does not answer goes to: a standby while it keeps
 * up, the primary while one of this process's own writes is not on the standby yet.
 */
export const readDbOf = (ctx: Pick<Context, 'db' | 'reads'>): Kysely<Database> => ctx.reads?.db() ?? ctx.db;

/**
 * The read model of a request, once it can answer: built, and at `minPosition` if given
 * (else 503). Sets X-Directory-Position to what the answer reflects.
 */
export async function readModelOf(ctx: Context, minPosition: string | undefined): Promise<ReadModel> {
  const model = ctx.readModel;
  if (!model) throw new AppError('INTERNAL', ['This transport has no read model']);
  await model.readable(minPosition);
  ctx.setHeader?.(POSITION_HEADER, model.positionHeader);
  return model;
}
