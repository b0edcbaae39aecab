import { isDatabaseUnavailable } from '@directory/db';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * Every failure the service reports, with its HTTP status, the spec's `error` text and the
 * tRPC code. This table is the only place where errors meet transport statuses; the OpenAPI
 * document (openapi.ts) takes its error responses from it too.
 */
export const KINDS = {
  // tRPC has no code for a redirect; its clients read the status and location from the error's data.
  MOVED: { status: 301, error: 'Moved Permanently', code: 'NOT_FOUND' },
  VALIDATION: { status: 400, error: 'Validation error', code: 'BAD_REQUEST' },
  INVALID_EXPLORATION_DATA: { status: 400, error: 'Invalid exploration data format', code: 'BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, error: 'Forbidden', code: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, error: 'Not Found', code: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method Not Allowed', code: 'METHOD_NOT_SUPPORTED' },
  CONFLICT: { status: 409, error: 'Conflict', code: 'CONFLICT' },
  // tRPC has no code for 410; its clients read the status from the error's data.
  GONE: { status: 410, error: 'Gone', code: 'NOT_FOUND' },
  PRECONDITION_FAILED: { status: 412, error: 'Precondition Failed', code: 'PRECONDITION_FAILED' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, error: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' },
  REQUEST_TIMEOUT: { status: 408, error: 'Request Timeout', code: 'TIMEOUT' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload too large', code: 'PAYLOAD_TOO_LARGE' },
  RATE_LIMITED: { status: 429, error: 'Too Many Requests', code: 'TOO_MANY_REQUESTS' },
  HEADERS_TOO_LARGE: { status: 431, error: 'Request header fields too large', code: 'BAD_REQUEST' },
  INTERNAL: { status: 500, error: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' },
  UNAVAILABLE: { status: 503, error: 'Service Unavailable', code: 'INTERNAL_SERVER_ERROR' },
} as const satisfies Record<string, { status: number; error: string; code: TRPC_ERROR_CODE_KEY }>;

export type ErrorKind = keyof typeof KINDS;

export interface ErrorBody {
  success: false;
  error: string;
  details: string[];
  /** MOVED: where the resource is now. */
  location?: string;
}

/** The one error type. Extends TRPCError so tRPC passes it through unchanged. */
export class AppError extends TRPCError {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly details: string[];
  readonly location: string | undefined;

  constructor(kind: ErrorKind, details: string[], options: { cause?: unknown; location?: string } = {}) {
    const { status, error, code } = KINDS[kind];
    super({ code, message: details[0] ?? error, cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.status = status;
    this.details = details;
    this.location = options.location;
  }

  get body(): ErrorBody {
    return {
      success: false,
      error: KINDS[this.kind].error,
      details: this.details,
      ...(this.location !== undefined && { location: this.location }),
    };
  }
}

/** 503: the request could not get a database connection in time; the transport adds Retry-After. */
export const databaseUnavailable = (cause?: unknown) =>
  new AppError('UNAVAILABLE', ['The database cannot be reached right now; retry after Retry-After seconds'], {
    cause,
  });

export const unauthorized = () => new AppError('UNAUTHORIZED', ['Invalid or missing API Key']);

/** A minimal structural view of zod / Standard Schema issues. */
interface Issue {
  path?: readonly (PropertyKey | { key: PropertyKey })[] | undefined;
  message: string;
}

/** Where a transport took a procedure's input from: the name of an issue at the input's root. */
export type InputSource = 'body' | 'query';

/** `<path>: <message>`, the path dotted from `prefix` (`root`, the input's source, when empty). */
export function issueDetails(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[] = [],
  root: InputSource = 'body',
): string[] {
  return issues.map((issue) => {
    const path = [...prefix, ...(issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p))];
    return `${path.length ? path.map(String).join('.') : root}: ${issue.message}`;
  });
}

const TRPC_CLIENT_ERRORS: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorKind>> = {
  PARSE_ERROR: 'VALIDATION',
  BAD_REQUEST: 'VALIDATION',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Whatever a procedure threw, as an AppError. Input validation failures (tRPC wraps the
 * schema's error as BAD_REQUEST) become VALIDATION with one detail per issue; anything
 * unexpected becomes a generic INTERNAL error that keeps the original only as `cause`. `source`
 * names an issue at the input's root: a GET's input is its query string, not a body.
 */
export function toAppError(err: unknown, source: InputSource = 'body'): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof TRPCError) {
    if (err.cause instanceof AppError) return err.cause;
    const issues = (err.cause as { issues?: unknown } | undefined)?.issues;
    if (err.code === 'BAD_REQUEST' && Array.isArray(issues)) {
      return new AppError('VALIDATION', issueDetails(issues as Issue[], [], source), { cause: err });
    }
    // tRPC's own refusals of a request (no such procedure, unreadable input, …)
    const kind = TRPC_CLIENT_ERRORS[err.code];
    if (kind) return new AppError(kind, [err.message], { cause: err });
  }
  // No connection in time, or the database is down: the client may try again
  // (docs/search.md#how-it-is-served-a-read-model-in-every-process, "Overload").
  const cause = err instanceof TRPCError ? (err.cause ?? err) : err;
  if (isDatabaseUnavailable(cause)) return databaseUnavailable(cause);
  return new AppError('INTERNAL', ['An unexpected error occurred'], { cause: err });
}
