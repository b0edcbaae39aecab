import fc from 'fast-check';
import { PARAM_ROUTES, pathOf, type Req, ROUTES, type RouteName, req } from './fuzz-routes.ts';
import { validProject } from './fuzz-valid.ts';
import { anyText, refFor, specialString, taskStatus } from './fuzz-values.ts';

/**
 * fuzz.test.ts's (d) (docs/keys-and-limits.md#hostile-input): query strings and path parameters.
 */

/** Percent-encodes every UTF-16 unit, a lone surrogate as the 3 bytes UTF-8 does not allow. */
function encodeLoosely(s: string): string {
  let out = '';
  for (const part of s.match(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g) ?? []) {
    const c = part.charCodeAt(0);
    if (part.length === 1 && c >= 0xd800 && c <= 0xdfff) {
      out += `%ED%${(0xa0 | ((c >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(part);
    }
  }
  return out;
}

const JUNK_SEGMENTS = [
  '%',
  '%z',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%2F',
  'a%2Fb',
  '%5C',
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%20',
  '+',
  '%2B',
  ';',
  ',',
  '*',
  '~',
  '@',
  ':',
  '!',
  "'",
  '%25',
  '%E2%80%AE',
  '%F0%9F%98%80',
  'null',
  'undefined',
  '__proto__',
  'constructor',
];
const segmentPiece = fc.oneof(
  fc.constantFrom(...JUNK_SEGMENTS),
  anyText.map(encodeLoosely),
  specialString.map(encodeLoosely),
  fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
);
/** A path parameter for a route: its own kind of reference, or junk. */
function paramFor(route: RouteName): fc.Arbitrary<string> {
  const ref = refFor(route);
  return fc.oneof(
    { weight: 3, arbitrary: ref },
    // pieces of junk, text and special strings run together
    { weight: 4, arbitrary: fc.array(segmentPiece, { minLength: 1, maxLength: 4 }).map((p) => p.join('')) },
    // raw, unencoded: the URL parser makes of it what it does
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
    // long; past 16 KB the request line alone is too large (431)
    { weight: 1, arbitrary: fc.constantFrom(101, 300, 2049, 5000, 20_000).map((n) => 'a'.repeat(n)) },
    { weight: 2, arbitrary: fc.tuple(ref, segmentPiece).map(([r, suffix]) => r + suffix) },
  );
}

const queryKey = fc.oneof(
  fc.constantFrom(
    'limit',
    'offset',
    'status',
    'limit[]',
    'status[]',
    'status[0]',
    'offset[a]',
    'limit[__proto__]',
    'apiKey',
    'slug',
    'id',
    '__proto__',
    'constructor',
    '',
    'LIMIT',
    'limit ',
  ),
  anyText.map(encodeLoosely),
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '10',
    '100',
    '101',
    '-0',
    '1e2',
    '1.5',
    '1.0',
    '0x10',
    '',
    '%201',
    '1%20',
    '01',
    '%D9%A3',
    '%2B1',
    '9'.repeat(30),
    String(2 ** 53),
    String(2 ** 53 - 1),
    'PENDING',
    'IN_PROGRESS',
    'COMPLETED',
    'FAILED',
    'pending',
    'null',
    'undefined',
    'true',
    '[]',
    '%zz',
    '%',
    '%00',
    '%ED%A0%80',
    '%2C',
    'PENDING,FAILED',
    '@@KEY@@',
  ),
  anyText.map(encodeLoosely),
  fc.integer().map(String),
);
const query = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
      .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  },
  // repeated parameters
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('limit', 'offset', 'status'), queryValue, queryValue)
      .map(([k, a, b]) => `${k}=${a}&${k}=${b}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '&&&',
      '==',
      '?',
      '&limit',
      'limit',
      'a=1&&b',
      '%',
      '=1',
      'limit=1=2',
      '#frag',
      'limit=5#x',
    ),
  },
);

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const urlRequest: fc.Arbitrary<Req> = fc.oneof(
  { weight: 2, arbitrary: query.map((q) => req('findTasks', { path: `${pathOf('findTasks')}?${q}` })) },
  {
    weight: 5,
    arbitrary: fc
      // the reads take no body: the path and query are all they have
      .oneof(
        { weight: 2, arbitrary: fc.constantFrom<RouteName>('getProject', 'getTask', 'getDelivery') },
        { weight: 1, arbitrary: fc.constantFrom(...PARAM_ROUTES) },
      )
      .chain((route) =>
        fc.tuple(
          fc.constant(route),
          paramFor(route),
          fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: query }),
          // now and then a method the path does not take: 405
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(ROUTES[route].method as string) },
            { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
          ),
          taskStatus,
          validProject,
        ),
      )
      .map(([route, p, q, method, status, project]) => {
        const json =
          method === 'GET' || method === 'DELETE'
            ? undefined
            : route === 'completeTask'
              ? { explorationData: project }
              : route === 'rotateSecret'
                ? { graceSeconds: 60 }
                : { status };
        return req(route, { method, path: pathOf(route, p) + (q === undefined ? '' : `?${q}`), json });
      }),
  },
);
