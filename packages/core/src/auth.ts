import { createHash, timingSafeEqual } from 'node:crypto';

/** The keys a request presented. undefined means "not sent"; any other value counts as sent. */
export interface Credentials {
  header: string | undefined;
  body: unknown;
}

/** The keys of a request: the `x-api-key` header and, in a JSON object body, `apiKey`. */
export function readCredentials(header: string | string[] | undefined, body: unknown): Credentials {
  const bodyKey =
    body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'apiKey')
      ? (body as { apiKey: unknown }).apiKey
      : undefined;
  return { header: Array.isArray(header) ? header.join(',') : header, body: bodyKey };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * A request is authorized when it sent at least one key and every key it sent equals the
 * configured one. Digests of equal length make the comparison constant-time whatever the
 * lengths of the strings.
 */
export function isAuthorized(credentials: Credentials, configuredKey: string): boolean {
  const sent = [credentials.header, credentials.body].filter((k) => k !== undefined);
  if (sent.length === 0) return false;
  const expected = digest(configuredKey);
  let ok = true;
  for (const key of sent) {
    ok = typeof key === 'string' && timingSafeEqual(digest(key), expected) && ok;
  }
  return ok;
}
