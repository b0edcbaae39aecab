import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors.ts';

/*
 * Keyset cursors: the sort key and id of the last item of a page, bound to the query that
 * made it and signed. A cursor is `<payload>.<mac>`, both base64url; the payload is
 * {q: hash of the query's parameters, k: sort key, i: id}. The MAC is an HMAC-SHA256 under
 * a key derived from the server's API key (every process of one deployment shares it, so a
 * cursor works on any of them; none of it can be read back from a cursor). A cursor that
 * was altered, or that belongs to another query, is a 400.
 */

export interface CursorPosition {
  key: string | number;
  id: string;
  /** When the walk began (see search.repository.ts asOf). */
  asOf?: string | undefined;
}

const macKeys = new Map<string, Buffer>();
function macKey(secret: string): Buffer {
  let key = macKeys.get(secret);
  if (!key) {
    key = createHash('sha256').update('project-directory cursor v1\u0000').update(secret).digest();
    macKeys.set(secret, key);
  }
  return key;
}

const mac = (secret: string, payload: string) =>
  createHmac('sha256', macKey(secret)).update(payload).digest('base64url').slice(0, 32);

/** A short hash of the parameters a cursor is bound to (canonical JSON of them). */
export function queryHash(binding: unknown): string {
  return createHash('sha256').update(JSON.stringify(binding)).digest('base64url').slice(0, 16);
}

export function encodeCursor(secret: string, binding: string, at: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ q: binding, k: at.key, i: at.id, t: at.asOf })).toString(
    'base64url',
  );
  return `${payload}.${mac(secret, payload)}`;
}

const invalid = (detail: string) => new AppError('VALIDATION', [`cursor: ${detail}`]);

export function decodeCursor(secret: string, binding: string, cursor: string): CursorPosition {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw invalid('Invalid cursor');
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('Invalid cursor');
  let parsed: { q?: unknown; k?: unknown; i?: unknown; t?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Invalid cursor');
  }
  if (parsed.q !== binding)
    throw invalid('Belongs to another query: the other parameters must be the same as on the first page');
  if (
    (typeof parsed.k !== 'string' && typeof parsed.k !== 'number') ||
    typeof parsed.i !== 'string' ||
    (parsed.t !== undefined && typeof parsed.t !== 'string')
  )
    throw invalid('Invalid cursor');
  return { key: parsed.k, id: parsed.i, asOf: parsed.t };
}
