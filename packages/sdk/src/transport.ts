import { DirectoryError, errorFromReply } from './errors.ts';
import { buildRequest, type Route } from './routes.ts';

export interface TransportOptions {
  /** Where the service runs, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  apiKey?: string;
  /**
   * Who is writing: sent as `X-Directory-Actor` on every request, recorded on the revisions a
   * write stores (at most 100 characters; percent-encoded when it is not plain ASCII).
   */
  actor?: string;
  /** Why: sent as X-Directory-Summary with every request, recorded on the revisions writes store. */
  summary?: string;
  /** Used for every request; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Further attempts after a failure that may be retried; default 3. */
  retries?: number;
  /** The limit for one attempt in ms, response body included; default 30000. */
  timeoutMs?: number;
  /** Called before each pause between attempts: what failed, and how long the pause is. */
  onWait?: (wait: RetryWait) => void;
}

export interface RetryWait {
  /** `GET /api/projects`: the request to be sent again. */
  call: string;
  /** Why: the failure of the attempt before (a 429, a 503, no connection). */
  error: DirectoryError;
  /** The pause in ms (the server's Retry-After when it sent one). */
  ms: number;
  /** The attempt that follows (2, 3, …) and how many there may be in all. */
  attempt: number;
  attempts: number;
}

/** `signal` ends the call (and its retries) early, rejecting with the signal's reason. */
export type Send = (route: Route, input: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

/** The `error` of a 2xx answer that is not the service's JSON object. */
export const UNREADABLE = 'Unreadable answer';

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;
/** A server asking for a longer pause than this is not waited for longer. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Exponential backoff with full jitter: a random pause up to base·2^attempt, capped. */
const backoff = (attempt: number) => Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);

/** `Retry-After` in seconds or as an HTTP date, in ms, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** A route's path as a pattern of the paths that answer it: a redirect to another route is not its answer. */
const routePattern = (route: Route) => new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Settles at the latest when `signal` aborts, even with an injected fetch that ignores signals. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A connection refused before anything was sent: the server cannot have acted on the request. */
function refusedBeforeSending(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown; errors?: unknown } } | undefined)?.cause;
  if (cause?.code === 'ECONNREFUSED') return true;
  // With autoSelectFamily Node tries every address and reports them together.
  return (
    Array.isArray(cause?.errors) &&
    cause.errors.length > 0 &&
    cause.errors.every((e) => (e as { code?: unknown }).code === 'ECONNREFUSED')
  );
}

type Outcome =
  | { ok: true; body: unknown }
  | { ok: false; error: DirectoryError; retry: boolean; delayMs?: number | undefined };

/**
 * Sends one call with the key in the `x-api-key` header, each attempt limited to `timeoutMs`.
 * Retried: 429 (refused before any processing) and a refused connection, for every call;
 * 5xx, timeouts and other network failures only for routes marked `repeatable`.
 */
export function createTransport(options: TransportOptions): Send {
  const { baseUrl, apiKey, retries = 3, timeoutMs = 30_000 } = options;
  const actor = options.actor?.trim() ? actorHeader(options.actor.trim()) : undefined;
  const summary = options.summary?.trim() ? actorHeader(options.summary.trim()) : undefined;
  const fetchFn = options.fetch ?? globalThis.fetch;
  /**
   * X-Directory-Position of this client's last write: its reads wait for it
   * (docs/search.md#how-it-is-served-a-read-model-in-every-process).
   */
  let lastWrite: string | undefined;

  async function attempt(
    route: Route,
    input: Record<string, unknown>,
    caller?: AbortSignal,
  ): Promise<Outcome> {
    const { ifMatch, ...fields } = route.etag ? input : { ...input, ifMatch: undefined };
    const withPosition =
      route.readsModel && lastWrite !== undefined && fields.minPosition === undefined
        ? { ...fields, minPosition: lastWrite }
        : fields;
    const { url, body } = buildRequest(baseUrl, route, withPosition);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (typeof ifMatch === 'string') headers['if-match'] = ifMatch;
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    if (actor !== undefined) headers['x-directory-actor'] = actor;
    if (summary !== undefined) headers['x-directory-summary'] = summary;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      caller?.throwIfAborted();
      const signal = caller ? AbortSignal.any([controller.signal, caller]) : controller.signal;
      const res = await untilAborted(fetchFn(url, { method: route.method, headers, body, signal }), signal);
      const text = await untilAborted(res.text(), signal);
      if (res.ok) {
        const position = res.headers.get('x-directory-position');
        if (position && route.method !== 'GET') lastWrite = position;
        try {
          const parsed = JSON.parse(text);
          // every answer of the service is an object (the envelope); anything else is not its answer
          const unreadable =
            parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
              ? 'not a JSON object'
              : res.redirected && !routePattern(route).test(new URL(res.url).pathname)
                ? `redirected to ${new URL(res.url).pathname}, another route`
                : undefined;
          if (unreadable !== undefined) {
            const call = `${route.method} ${new URL(url).pathname}`;
            return {
              ok: false,
              error: new DirectoryError(res.status, UNREADABLE, [`${call}: ${unreadable}`]),
              retry: false,
            };
          }
          const etag = route.etag ? res.headers.get('etag') : null;
          return {
            ok: true,
            body: etag && parsed && typeof parsed === 'object' ? { ...parsed, etag } : parsed,
          };
        } catch {
          return { ok: false, error: errorFromReply(res.status, res.statusText, text), retry: false };
        }
      }
      const error = errorFromReply(res.status, res.statusText, text);
      const retry = res.status === 429 || (res.status >= 500 && route.repeatable);
      const delayMs =
        res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : undefined;
      return { ok: false, error, retry, delayMs };
    } catch (err) {
      if (caller?.aborted) throw caller.reason;
      if (controller.signal.aborted) {
        const error = new DirectoryError(0, 'Timeout', [`No response within ${timeoutMs} ms`], {
          cause: err,
        });
        return { ok: false, error, retry: route.repeatable };
      }
      const reason = (err as { cause?: { message?: unknown } }).cause?.message ?? (err as Error).message;
      const error = new DirectoryError(0, 'Network error', [`${route.method} ${url}: ${String(reason)}`], {
        cause: err,
      });
      return { ok: false, error, retry: route.repeatable || refusedBeforeSending(err) };
    } finally {
      clearTimeout(timer);
    }
  }

  return async (route, input, signal) => {
    for (let n = 0; ; n++) {
      const outcome = await attempt(route, input, signal);
      if (outcome.ok) return outcome.body;
      if (!outcome.retry || n >= retries) throw outcome.error;
      const ms = outcome.delayMs ?? backoff(n);
      const call = `${route.method} ${new URL(buildRequest(baseUrl, route, input).url).pathname}`;
      options.onWait?.({ call, error: outcome.error, ms, attempt: n + 2, attempts: retries + 1 });
      await sleep(ms);
      signal?.throwIfAborted();
    }
  };
}

/**
 * An actor as a header value: as it is when it is printable ASCII without `%`, else
 * percent-encoded (UTF-8), which the service decodes (a header carries only Latin-1).
 */
export function actorHeader(actor: string): string {
  return /^[\x20-\x24\x26-\x7e]*$/.test(actor) ? actor : encodeURIComponent(actor);
}
