/**
 * The URL rule on its own, free of zod and of Node: the server's schema (common.ts) and the web
 * console (which marks pasted lines that are not URLs before it sends anything) share it.
 */

/**
 * URLs are indexed for exact lookup; a btree entry holds at most ~2.7 kB, so URLs are
 * limited to 2048 bytes of UTF-8 (documented in the README).
 */
export const MAX_URL_BYTES = 2048;

/**
 * The one rule for a URL the service stores (link urls, task sourceUrls), as the server checks
 * it and as the OpenAPI document states it: `http://` or `https://` (any letter case), a
 * non-empty authority, then an optional path, query or fragment; no whitespace or control
 * characters anywhere. IRIs are accepted as they are (`https://例子.cn/路径`); nothing is
 * normalized, since URLs are matched by exact string equality. Another scheme (`ftp://`) is refused.
 */
export const HTTP_URL_PATTERN =
  '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s\\u0000-\\u001f\\u007f/?#]+(?:[/?#][^\\s\\u0000-\\u001f\\u007f]*)?$';
const HTTP_URL = new RegExp(HTTP_URL_PATTERN, 'u');

export const INVALID_URL = 'Invalid URL: expected an HTTP or HTTPS URL';
export const URL_TOO_BIG = `Too big: expected URL to have <=${MAX_URL_BYTES} bytes`;

/** Why `s` is not a URL the service stores, in the API's words; none when it is one. */
export function httpUrlProblem(s: string): typeof INVALID_URL | typeof URL_TOO_BIG | undefined {
  if (!HTTP_URL.test(s)) return INVALID_URL;
  if (new TextEncoder().encode(s).length > MAX_URL_BYTES) return URL_TOO_BIG;
  return undefined;
}
