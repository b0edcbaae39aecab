import fc from 'fast-check';
import { ROUTES, type RouteName } from './fuzz-routes.ts';

/**
 * The values fuzz.test.ts's requests are made of (docs/keys-and-limits.md#hostile-input): text
 * of any kind, strings at the limits, special strings, numbers, odd keys, values of any type,
 * and references (markers) to the records seeded before each block, or to nothing.
 */

/** One character, mostly plain, sometimes a lone surrogate, NUL, RTL override, emoji, … */
export const char = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u202e',
      '\u200f',
      '\ufeff',
      '\u2028',
      '😀',
      '👨‍👩‍👧',
      '中',
      'ب',
      'é',
      '\r\n',
      '\t',
      '"',
      '\\',
      '%',
      '/',
      '.',
      '?',
      '#',
      '&',
      '=',
      '+',
      ' ',
    ),
  },
);
export const anyText = fc.string({ unit: char, maxLength: 30 });

/** A single code point that PostgreSQL can store: the stuff of valid text. */
const validChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('中', '文', '😀', 'é', 'ب', 'ש', '\u202e', ' ') },
);
export const validText = (minLength: number, maxLength: number) =>
  fc.string({ unit: validChar, minLength, maxLength });

/** Strings next to limits: 201 (names), 501 (descriptions), 1001, 2001, 10001 (content), … */
export const longString = fc
  .tuple(fc.constantFrom(200, 201, 500, 501, 1001, 2001, 2049, 10_001, 100_000), validChar)
  .map(([n, c]) => c.repeat(n));

export const BAD_URLS = [
  'javascript:alert(1)',
  'ftp://example.org/file',
  'file:///etc/passwd',
  'data:text/html,<b>x</b>',
  'mailto:someone@example.org',
  '/relative/path',
  'relative',
  'example.org',
  '//example.org/protocol-relative',
  'http://',
  'https://',
  'http:example.org',
  'https://exa mple.org/',
  'https://example.org/\u0000',
  'https://example.org/\ud800',
  `https://example.org/${'a'.repeat(2100)}`,
  '',
  ' ',
];
export const GOOD_ODD_URLS = [
  'HTTPS://EXAMPLE.ORG/UPPER',
  'https://例え.テスト/パス',
  'http://127.0.0.1:0/',
  'https://example.org/?q=%00',
  'https://user:pass@example.org/',
  'https://example.org/#frag',
];
const SPECIAL_STRINGS = [
  ...BAD_URLS,
  ...GOOD_ODD_URLS,
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '😀'.repeat(201),
  '\u202eevil.exe',
  'مشروع جديد',
  '测试项目',
  '1e309',
  '-1e309',
  '-0',
  '0',
  '-1',
  '9007199254740993',
  '123456789012345678901234567890',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '%s%n%x',
  '{{7*7}}',
  '\u0024{7*7}',
  '../../etc/passwd',
  'PENDING',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'pending',
  'ACTIVE',
  'ARCHIVED',
  'active',
  'WEBSITE',
  'CODEHOST',
  'MODELHUB',
  'PAPER',
  'GITHUB',
  'website',
  '@@KEY@@',
  '@@SLUG_A@@',
  '@@TASK_0@@',
  '@@URL_CODE@@',
];
export const specialString = fc.constantFrom(...SPECIAL_STRINGS);
const number = fc.oneof(
  fc.integer(),
  fc.double(), // NaN and ±Infinity go out as null
  fc.constantFrom(-0, 0, 1, -1, 1.5, 10, 11, 100, 101, 2 ** 53 + 2, -(2 ** 53), 1e308, 5e-324),
);

export const SHAPE_KEYS = [
  'projects',
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
  'status',
  'source',
  'tags',
  'links',
  'type',
  'url',
  'title',
  'tasks',
  'sourceUrl',
  'sourceType',
  'urls',
  'explorationData',
  'explorationSummary',
  'errorMessage',
  'codehostUrl',
  'modelhubUrl',
  'websiteUrl',
  'slug',
  'id',
  'limit',
  'offset',
  'graceSeconds',
];
export const weirdKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'apiKey', ''),
  fc.constantFrom(...SHAPE_KEYS),
  anyText,
);

export const scalar = fc.oneof(
  { weight: 3, arbitrary: anyText },
  { weight: 2, arbitrary: specialString },
  { weight: 2, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: longString },
);
/** Any JSON-able value, of any type: what a field gets when its type is wrong. */
export const weird: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(weirdKey, scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.anything({ key: weirdKey, maxDepth: 3, values: [scalar] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// References to the records seeded before each block (markers), and to nothing.
export const slugRef = fc.constantFrom('@@SLUG_A@@', '@@SLUG_B@@', 'no-such-project');
export const taskRef = fc.constantFrom(
  '@@TASK_0@@',
  '@@TASK_1@@',
  '@@TASK_2@@',
  '@@TASK_3@@',
  '@@TASK_4@@',
  'nope',
);
export const linkUrl = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 40 }).map((n) => `https://fuzz.example.org/p/${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('@@URL_CODE@@', '@@URL_WEB@@', '@@URL_TASK_0@@') },
);
export const taskUrl = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 200 }).map((n) => `https://fuzz.example.org/task/${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('@@URL_TASK_0@@', '@@URL_TASK_3@@', '@@URL_CODE@@') },
);
export const webhookRef = fc.constantFrom('@@WEBHOOK@@', 'no-such-webhook');
// an attempt of a change and a ping (of the seeded webhook), one of another webhook, and none
export const deliveryRef = fc.constantFrom('@@ATTEMPT@@', '@@PING@@', '@@OTHER_ATTEMPT@@', '999999999', '0');
/** The kind of reference a route's path parameter takes. */
export const refFor = (route: RouteName) =>
  ROUTES[route].path.includes('{slug}')
    ? slugRef
    : route === 'rotateSecret'
      ? webhookRef
      : route === 'getDelivery'
        ? deliveryRef
        : taskRef;
export const linkType = fc.constantFrom('WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER');
export const taskStatus = fc.constantFrom('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED');

/** Array sizes at and past the limits (10 tasks, 50 urls, 100 projects, …). */
export const ARRAY_SIZES = fc.constantFrom(0, 1, 10, 11, 50, 51, 100, 101);
