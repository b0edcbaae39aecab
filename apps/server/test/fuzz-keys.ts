import fc from 'fast-check';
import { type Req, ROUTES, req } from './fuzz-routes.ts';
import { validRequest } from './fuzz-valid.ts';
import { weird } from './fuzz-values.ts';

/**
 * fuzz.test.ts's (e) (docs/keys-and-limits.md#hostile-input): key variations; a keyed route sent
 * no valid key expects 401.
 */

type KeyVariant = { header: string[]; body?: unknown; query?: string };
const WRONG_KEYS = [
  '',
  'wrong',
  '@@KEY@@x',
  'x@@KEY@@',
  '@@KEY_UPPER@@',
  '@@KEY_PREFIX@@',
  'null',
  'Bearer @@KEY@@',
];
const wrongHeader = fc.oneof(
  fc.constantFrom(...WRONG_KEYS),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
);
const wrongBodyKey = fc.oneof(
  fc.constantFrom<unknown>(
    ...WRONG_KEYS,
    ' @@KEY@@',
    '@@KEY@@ ',
    '@@KEY@@\u0000',
    null,
    123,
    true,
    [],
    {},
    ['@@KEY@@'],
    { key: '@@KEY@@' },
  ),
  weird,
);
/** Mostly no valid key (none, wrong, header and body disagreeing, in the query); some valid ones. */
const keyVariant: fc.Arbitrary<KeyVariant> = fc.oneof(
  fc.constant<KeyVariant>({ header: [] }),
  wrongHeader.map((h): KeyVariant => ({ header: [h] })),
  wrongBodyKey.map((b): KeyVariant => ({ header: ['@@KEY@@'], body: b })),
  wrongHeader.map((h): KeyVariant => ({ header: [h], body: '@@KEY@@' })),
  wrongBodyKey.map((b): KeyVariant => ({ header: [], body: b })),
  fc
    .constantFrom('apiKey', 'x-api-key', 'key', 'api_key')
    .map((k): KeyVariant => ({ header: [], query: `${k}=@@KEY@@` })),
  fc.constant<KeyVariant>({ header: ['@@KEY@@', '@@KEY@@'] }),
  fc.constantFrom<KeyVariant>(
    { header: ['@@KEY@@'] },
    { header: [], body: '@@KEY@@' },
    { header: ['@@KEY@@'], body: '@@KEY@@' },
  ),
);

export const keyRequest: fc.Arbitrary<Req> = fc
  .tuple(validRequest, keyVariant, fc.boolean())
  .map(([v, variant, malformed]) => {
    const takesBody = ROUTES[v.route].method !== 'GET';
    const headers = variant.header.map((h): [string, string] => ['x-api-key', h]);
    const sep = v.path.includes('?') ? '&' : '?';
    const path = variant.query ? `${v.path}${sep}${variant.query}` : v.path;
    let body: string | undefined;
    let bodyKeySent = false;
    if (takesBody) {
      const json: Record<string, unknown> = { ...v.json };
      if ('body' in variant) json.apiKey = variant.body;
      // a body that cannot be parsed supplies no key
      if (malformed && variant.header.length === 0) body = JSON.stringify(json).slice(0, -1);
      else {
        body = JSON.stringify(json);
        bodyKeySent = 'body' in variant;
      }
    }
    const sentSomething = headers.length > 0 || bodyKeySent;
    const headerOk = variant.header.length <= 1 && variant.header.every((h) => h === '@@KEY@@');
    const bodyOk = !bodyKeySent || variant.body === '@@KEY@@';
    const authorized = sentSomething && headerOk && bodyOk;
    return req(v.route, {
      path,
      headers,
      ...(body !== undefined && { body }),
      expect401: ROUTES[v.route].keyed && !authorized,
    });
  });
