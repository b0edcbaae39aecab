import type { IncomingMessage } from 'node:http';
import type { Meta } from '@directory/core';
import {
  AppError,
  authenticate,
  type InputShape,
  type KeyVerifier,
  type Principal,
  requireScope,
  toAppError,
  unauthorized,
} from '@directory/core/server';
import { MAX_BODY_DEPTH, NOT_A_STRING } from './body-scan.types.ts';
import { parseBody, readBody } from './read-body.ts';

/** A body read, its key checked and, when the key may pay for it, parsed. */
export interface CheckedBody {
  /** Who the request is (undefined on a route that takes no key). */
  principal: Principal | undefined;
  /** The parsed body; undefined when there is none or it could not be parsed. */
  value: unknown;
  /** Why the body cannot be used (400 after the key check); undefined when it can. */
  bodyError: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A key that was valid when the request began must still be valid once its body has arrived
 * (docs/keys-and-limits.md#revoking-a-key): a revoke while a slow body was on its way is a 401.
 */
export async function stillValid(keys: KeyVerifier, key: string): Promise<Principal> {
  const known = keys.verifyKnown?.(key);
  const principal = known === undefined ? await keys.verify(key) : known;
  if (!principal) throw unauthorized();
  return principal;
}

/**
 * The key a REST request sent in a header, checked before its body is read (401, then 403), so
 * that a caller without the right key costs no parse (docs/keys-and-limits.md#bodies); undefined
 * when the route takes no key, none was sent, or the declared length is over the limit (413 first).
 */
export async function checkHeaderKey(options: {
  scope: Meta['scope'];
  headerKey: string | undefined;
  tooLarge: boolean;
  known: Principal | null | undefined;
  keys: KeyVerifier;
}): Promise<Principal | undefined | AppError> {
  if (!options.scope || options.headerKey === undefined || options.tooLarge) return undefined;
  try {
    const found =
      options.known === undefined
        ? await authenticate({ header: options.headerKey, body: undefined }, options.keys)
        : options.known;
    if (found === null) throw unauthorized();
    requireScope(found, options.scope);
    return found;
  } catch (err) {
    return toAppError(err);
  }
}

/**
 * The body of a REST request, in the order 413 → 401 → 403 → 400 (docs/keys-and-limits.md#bodies):
 * read within `limit` bytes and scanned, never parsed before its key is known to be good. The key
 * is the header's (checked before the body was read: `principal`, checked again now) or, on a
 * keyed route without one, the body's `apiKey` as the scan found it. Then an array longer than
 * the schema allows is a 400 before any item is looked at, and only then is the body parsed.
 */
export async function readCheckedBody(
  req: IncomingMessage,
  options: {
    limit: number;
    shape: InputShape | undefined;
    keys: KeyVerifier;
    scope: Meta['scope'];
    headerKey: string | undefined;
    principal: Principal | undefined;
  },
): Promise<CheckedBody | AppError> {
  // the body's own key is looked for only on a keyed route that got none in a header
  const needKey = options.scope !== undefined && options.principal === undefined;
  const body = await readBody(req, options.limit, options.shape, needKey);
  if (body.kind === 'too-large')
    return new AppError('PAYLOAD_TOO_LARGE', [`body: Must be at most ${options.limit} bytes`]);
  let principal = options.principal;
  try {
    if (principal && options.headerKey !== undefined)
      principal = await stillValid(options.keys, options.headerKey);
    else if (options.scope) {
      const found =
        body.kind === 'bytes' || body.kind === 'refused'
          ? body.scan.apiKey
          : body.kind === 'too-deep'
            ? body.apiKey
            : undefined;
      principal = await authenticate(
        { header: options.headerKey, body: found === NOT_A_STRING ? 0 : found },
        options.keys,
      );
      requireScope(principal, options.scope);
    }
  } catch (err) {
    return toAppError(err);
  }
  if (body.kind === 'none') return { principal, value: undefined, bodyError: undefined };
  if (body.kind === 'too-deep')
    return {
      principal,
      value: undefined,
      bodyError: `Must not nest arrays and objects deeper than ${MAX_BODY_DEPTH} levels`,
    };
  if (body.kind === 'refused' || body.scan.tooLong !== undefined)
    return new AppError('VALIDATION', [body.scan.tooLong ?? 'body: Cannot be read']);
  const parsed = await parseBody(body.bytes);
  // a body that is not JSON supplies no key: 401 if it was the only key (401 before 400)
  if (!parsed && needKey) return unauthorized();
  if (!parsed) return { principal, value: undefined, bodyError: 'Malformed JSON' };
  return {
    principal,
    value: parsed.value,
    bodyError: isObject(parsed.value) ? undefined : 'Expected a JSON object',
  };
}
