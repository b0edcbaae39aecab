import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FeedPosition, QueuePosition } from '@directory/db';
import { AppError } from '../errors.ts';

/*
 * Every cursor of the API, in one opaque format (docs/decisions.md#request-handling): base64url of
 * `<tag>.<field>.<field>…`, each field percent-encoded so that a `.` never appears inside one.
 * - The tag names the kind and its version (`c1` the change feed, `t2` tasks, `d2` duplicate
 *   groups, `s3` sorted pages of projects, tags, revisions and deleted projects, `p1` the
 *   X-Directory-Position a client passes back as `minPosition`).
 * - A cursor bound to a query carries, as its first field, a short hash of the query's
 *   parameters; one used with other parameters is refused ("Belongs to another query").
 * - A signed kind appends `.<mac>`: SHA3-256 of a key derived from the deployment's cursor
 *   secret (random, made once and kept in its database, never derived from an API key)
 *   followed by the base64url part, truncated to 192 bits (every process of a deployment
 *   shares the secret, so a cursor works on any of them). Signed are the kinds whose fields
 *   are read back as they are: a sort key and an id the server did not write cannot be slipped in.
 *
 * Why a keyed hash and not HMAC: HMAC's nested construction exists because SHA-2 (and SHA-1,
 * MD5) leak their whole internal state in the digest, so H(key ‖ body) lets anyone who sees one
 * tag compute the tag of body ‖ padding ‖ more (length extension). SHA-3 (Keccak, a sponge)
 * keeps a capacity of 512 bits of its state out of every output, so it has no length extension,
 * and its designers give H(key ‖ message) as its MAC; NIST's KMAC is that construction. The key
 * has a fixed length (43 characters), so no key ‖ body split is ambiguous. A forgery then costs
 * guessing 192 bits, as it did with the truncated HMAC, at half its price per page: one hash of
 * ~130 bytes instead of HMAC's two hashes and its key schedule per call (cursors are made on
 * every page of a list and checked on every later one).
 */

/** One hash of `data`, in one call where Node has it (20.12 and later). */
const hashOf: (algorithm: string, data: string, encoding: 'base64url') => string =
  typeof crypto.hash === 'function'
    ? crypto.hash
    : (algorithm, data, encoding) => createHash(algorithm).update(data).digest(encoding);

/*
 * Whatever is wrong with a cursor, the answer is a 400 `Validation error` with a detail
 * `cursor: …`, never a 500. A cursor minted by an older version of a kind (another tag) is
 * refused the same way.
 */

export interface CursorKind<T> {
  readonly tag: string;
  readonly signed: boolean;
  /** The parameter a client passes it back in, and what a malformed one is told (a cursor's by default). */
  readonly refusal?: { parameter: string; detail: string };
  fields(value: T): readonly string[];
  /** The value, or undefined when the fields are not a well-formed cursor of this kind. */
  parse(fields: readonly string[]): T | undefined;
}

/** What a cursor is checked against: the deployment's secret and the parameters of the query. */
export interface CursorScope {
  /** The deployment's cursor secret: the MAC key of signed kinds is derived from it. */
  secret?: string;
  /** The parameters the cursor belongs to (canonical JSON is hashed); absent: bound to none. */
  query?: unknown;
}

const MAX_CURSOR_LENGTH = 1000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const PAGE_REFUSAL = {
  parameter: 'cursor',
  detail: 'Invalid cursor; pass back the nextCursor of a previous page unchanged',
};
const malformedOf = (kind: CursorKind<unknown>) => {
  const { parameter, detail } = kind.refusal ?? PAGE_REFUSAL;
  return new AppError('VALIDATION', [`${parameter}: ${detail}`]);
};
const otherQuery = () =>
  new AppError('VALIDATION', [
    'cursor: Belongs to another query: the other parameters must be the same as on the first page',
  ]);

const macKeys = new Map<string, string>();
function macKey(secret: string): string {
  let key = macKeys.get(secret);
  if (!key) {
    key = createHash('sha256').update('project-directory cursor v2\u0000').update(secret).digest('base64url');
    macKeys.set(secret, key);
  }
  return key;
}

function mac(scope: CursorScope, body: string): string {
  if (scope.secret === undefined) throw new Error('a signed cursor needs the secret');
  return hashOf('sha3-256', macKey(scope.secret) + body, 'base64url').slice(0, 32);
}

const queryHash = (query: unknown) => hashOf('sha256', JSON.stringify(query), 'base64url').slice(0, 16);

const escapeField = (field: string) => encodeURIComponent(field).replaceAll('.', '%2E');

export function encodeCursor<T>(kind: CursorKind<T>, value: T, scope: CursorScope = {}): string {
  const fields = [
    kind.tag,
    ...(scope.query === undefined ? [] : [queryHash(scope.query)]),
    ...kind.fields(value).map(escapeField),
  ];
  const body = Buffer.from(fields.join('.'), 'utf8').toString('base64url');
  return kind.signed ? `${body}.${mac(scope, body)}` : body;
}

export function decodeCursor<T>(kind: CursorKind<T>, cursor: string, scope: CursorScope = {}): T {
  const malformed = () => malformedOf(kind as CursorKind<unknown>);
  if (cursor.length > MAX_CURSOR_LENGTH) throw malformed();
  const parts = cursor.split('.');
  if (parts.length !== (kind.signed ? 2 : 1)) throw malformed();
  const [body = '', signature = ''] = parts;
  if (!BASE64URL.test(body)) throw malformed();
  if (kind.signed) {
    const expected = Buffer.from(mac(scope, body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw malformed();
  }
  let fields: string[];
  try {
    fields = Buffer.from(body, 'base64url').toString('utf8').split('.').map(decodeURIComponent);
  } catch {
    throw malformed();
  }
  if (fields.shift() !== kind.tag) throw malformed();
  if (scope.query !== undefined && fields.shift() !== queryHash(scope.query)) throw otherQuery();
  const value = kind.parse(fields);
  if (value === undefined) throw malformed();
  return value;
}

// --- The kinds.

/** A position in a sorted list: the last item's sort key and id; `asOf` fixes a walk's snapshot. */
export interface PagePosition {
  key: string | number;
  id: string;
  asOf?: string | undefined;
}

/** Projects (search), tags, a project's revisions, deleted projects. Signed, bound to the query. */
export const pageCursor: CursorKind<PagePosition> = {
  // s3: signed with SHA3-256 (s2 was HMAC-SHA256: such a cursor is refused after the upgrade)
  tag: 's3',
  signed: true,
  fields: (p) => [typeof p.key === 'number' ? `n${p.key}` : `s${p.key}`, p.id, p.asOf ?? ''],
  parse([key = '', id = '', asOf, ...rest]) {
    if (rest.length > 0 || id === '' || asOf === undefined) return undefined;
    if (asOf !== '' && !Number.isFinite(Number(asOf))) return undefined;
    const number = Number(key.slice(1));
    const parsedKey = key.startsWith('s')
      ? key.slice(1)
      : key.startsWith('n') && Number.isFinite(number)
        ? number
        : undefined;
    if (parsedKey === undefined) return undefined;
    return { key: parsedKey, id, asOf: asOf === '' ? undefined : asOf };
  },
};

// A timestamp as the database prints it (microseconds): a malformed one would make its cast fail.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Endpoint 5: the last task's created_at and id. Bound to the status filter. */
export const taskCursor: CursorKind<QueuePosition> = {
  tag: 't2',
  signed: false,
  fields: (p) => [p.createdAt, p.id],
  parse([createdAt = '', id = '', ...rest]) {
    if (
      rest.length > 0 ||
      !TIMESTAMP.test(createdAt) ||
      Number.isNaN(Date.parse(createdAt.replace(' ', 'T')))
    )
      return undefined;
    if (id.length === 0 || id.length > 200) return undefined;
    return { createdAt, id };
  },
};

/** The change feed: a change's transaction id and its id ("c1.<xid>.<id>"). */
export const feedCursor: CursorKind<FeedPosition> = {
  tag: 'c1',
  signed: false,
  fields: (p) => [p.xid, p.id],
  parse([xid = '', id = '', ...rest]) {
    // xid8 and bigint are 64-bit: larger digits would make the database refuse the cast.
    if (rest.length > 0 || !/^\d{1,20}$/.test(xid) || !/^\d{1,19}$/.test(id)) return undefined;
    if (BigInt(xid) > 2n ** 64n - 1n || BigInt(id) > 2n ** 63n - 1n) return undefined;
    return { xid, id };
  },
};

/**
 * X-Directory-Position (docs/search.md#how-it-is-served-a-read-model-in-every-process): how far into the
 * change feed an answer reflects, passed back as `minPosition` ("p1.<transaction horizon>").
 */
export const feedPositionToken: CursorKind<bigint> = {
  tag: 'p1',
  signed: false,
  refusal: {
    parameter: 'minPosition',
    detail: 'Invalid position; pass back an X-Directory-Position header value',
  },
  fields: (horizon) => [String(horizon)],
  parse: ([horizon = '', ...rest]) =>
    rest.length === 0 && /^\d{1,20}$/.test(horizon) ? BigInt(horizon) : undefined,
};

export interface DuplicatesPosition {
  reason: 'link' | 'name';
  key: string;
}

/** Groups of likely duplicates: the last group's reason and key. */
export const duplicatesCursor: CursorKind<DuplicatesPosition> = {
  tag: 'd2',
  signed: false,
  fields: (p) => [p.reason, p.key],
  parse([reason, key = '', ...rest]) {
    if (rest.length > 0 || (reason !== 'link' && reason !== 'name') || key === '') return undefined;
    return { reason, key };
  },
};
