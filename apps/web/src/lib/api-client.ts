import type { RouterOutputs } from '@directory/core';
import { createDirectoryClient, type DirectoryClient, DirectoryError } from '@directory/sdk';
import { apiKey } from './api-key.ts';

/**
 * The console talks to the REST API of its own origin through the SDK's client, whose inputs and
 * replies are typed from the router: a change of a procedure's schema breaks this build. Only
 * `import type` from @directory/core: no server code is bundled.
 */

type LinkType = RouterOutputs['projects']['get']['data']['links'][number]['type'];
export const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];

/** A reply in the error envelope (`{success: false, error, details}`), or a failed connection. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string[],
  ) {
    super(details[0] ?? error);
  }
}

/** setTimeout's largest delay: the SDK's per-attempt limit, off (the browser limits a request). */
const NO_TIMEOUT_MS = 2_147_483_647;

/**
 * A client for one call. Made afresh each time: the key is the one entered at the moment of the
 * call, public reads send none, and no write position carries over to later reads (the console
 * refetches after its writes). The SDK's methods take no AbortSignal, so the caller's goes to
 * `fetch` directly (its own is the per-attempt timer, which is off).
 */
function client(
  key: string | null,
  signal: AbortSignal | undefined,
  summary: string | undefined,
): DirectoryClient {
  return createDirectoryClient({
    baseUrl: window.location.origin,
    ...(key !== null && { apiKey: key }),
    // why, as X-Directory-Summary (percent-encoded by the SDK when not plain ASCII)
    ...(summary?.trim() && { summary: summary.trim() }),
    // TanStack Query decides what is asked again (app/provider.tsx).
    retries: 0,
    timeoutMs: NO_TIMEOUT_MS,
    fetch: (input, init) =>
      fetch(input, { ...init, signal: signal ?? init?.signal ?? null, credentials: 'omit' }),
  });
}

/** The failure as the console words it (the texts the pages show). */
function toApiError(err: DirectoryError): ApiError {
  if (err.status === 0) return new ApiError(0, 'Network error', ['The server could not be reached']);
  // A reply without the error envelope, which the SDK names `HTTP <status> <statusText>`.
  const bare = /^HTTP \d+ ?(.*)$/.exec(err.error);
  if (bare && err.details.every((d) => /^(?:Unexpected|Empty) response body/.test(d)))
    return new ApiError(err.status, bare[1] ?? '', []);
  return new ApiError(err.status, err.error, err.details);
}

/**
 * Runs one SDK call. With `key`, the call sends the key of this tab (none entered: a 401 without
 * asking), and a key the server refuses is forgotten, so that the page asks again. With `summary`
 * (not blank), every write of the call records it on its revisions (docs/curation.md#edit-summaries).
 */
export async function request<T>(
  call: (client: DirectoryClient) => Promise<T>,
  options: { key?: boolean; signal?: AbortSignal | undefined; summary?: string | undefined } = {},
): Promise<T> {
  const key = options.key ? apiKey.get() : null;
  if (options.key && !key) throw new ApiError(401, 'Unauthorized', ['No API key entered']);
  try {
    return await call(client(key, options.signal, options.summary));
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (!(err instanceof DirectoryError)) throw err;
    if (err.status === 401 && options.key) apiKey.refuse();
    throw toApiError(err);
  }
}
