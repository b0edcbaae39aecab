import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/**
 * Property-based fuzzing of all ten endpoints, and of two webhook routes (rotating a secret, a
 * delivery's detail): generated, mutated and raw bodies, query
 * strings, path parameters and key variations. For every response: no 5xx, the envelope, and
 * no write by a rejected request (nor by a read). FUZZ_RUNS (default 10000) is the number of
 * requests per database target; FUZZ_SEED replays a run (fast-check prints seed and path).
 *
 * Requests are written with markers (`@@KEY@@`, `@@TASK_0@@`, …) that are replaced just before
 * sending, so a printed counterexample reads the same, and replays, whatever the ids of a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED === undefined ? 20_261_122 : Number(process.env.FUZZ_SEED);
const BLOCK_TIMEOUT = 15 * 60_000;

// ---------------------------------------------------------------------------------------------
// Routes and requests

const ROUTES = {
  upsert: { method: 'POST', path: '/api/webhook/projects', keyed: true },
  getProject: { method: 'GET', path: '/api/projects/{slug}', keyed: false },
  deleteProject: { method: 'DELETE', path: '/api/projects/{slug}', keyed: true },
  createTasks: { method: 'POST', path: '/api/discovery/tasks', keyed: true },
  findTasks: { method: 'GET', path: '/api/discovery/tasks', keyed: true },
  getTask: { method: 'GET', path: '/api/discovery/tasks/{id}', keyed: false },
  patchTask: { method: 'PATCH', path: '/api/discovery/tasks/{id}', keyed: true },
  completeTask: { method: 'POST', path: '/api/discovery/tasks/{id}/complete', keyed: true },
  checkTasks: { method: 'POST', path: '/api/discovery/check-duplicates', keyed: true },
  checkProjects: { method: 'POST', path: '/api/webhook/check-duplicates', keyed: true },
  rotateSecret: { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', keyed: true },
  // the seeded webhook's attempts: the delivery id is what varies
  getDelivery: { method: 'GET', path: '/api/webhooks/@@WEBHOOK@@/deliveries/{deliveryId}', keyed: true },
} as const;
type RouteName = keyof typeof ROUTES;
const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
const BODY_ROUTES = ROUTE_NAMES.filter((r) => ROUTES[r].method !== 'GET');
const PARAM_ROUTES = ROUTE_NAMES.filter((r) => ROUTES[r].path.includes('{'));
/** POSTs that only read: a duplicate check writes nothing, even when it answers 200. */
const READ_ONLY_POSTS = new Set<string>([ROUTES.checkTasks.path, ROUTES.checkProjects.path]);

interface Req {
  route: RouteName;
  method: string;
  /** Path and query, with markers. */
  path: string;
  /** Appended in order; `x-api-key: @@KEY@@` unless a key variation says otherwise. */
  headers: [string, string][];
  body?: string | Uint8Array;
  /** A keyed route that was sent no valid key: 401 is the only right answer. */
  expect401?: boolean;
}

const pathOf = (route: RouteName, param = '') => ROUTES[route].path.replace(/\{\w+\}/, param);
const KEY_HEADER: [string, string] = ['x-api-key', '@@KEY@@'];

/** A request as fast-check prints it in a counterexample: the body cut short. */
function withPrinter(req: Req): Req {
  const print = () => {
    const body =
      req.body === undefined
        ? ''
        : typeof req.body === 'string'
          ? `\n  body (${req.body.length} chars): ${JSON.stringify(req.body.slice(0, 600))}${req.body.length > 600 ? '…' : ''}`
          : `\n  body (${req.body.length} bytes, no content-type; as UTF-8): ${JSON.stringify(Buffer.from(req.body.subarray(0, 600)).toString('utf8'))}`;
    return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length} chars)` : req.path}\n  headers: ${JSON.stringify(req.headers)}${body}${req.expect401 ? '\n  (no valid key: expects 401)' : ''}`;
  };
  return Object.assign(req, { [fc.toStringMethod]: print });
}

function req(route: RouteName, over: Partial<Req> & { json?: unknown } = {}): Req {
  const { json, ...rest } = over;
  return withPrinter({
    route,
    method: ROUTES[route].method,
    path: pathOf(route),
    headers: [KEY_HEADER],
    ...(json !== undefined && { body: JSON.stringify(json) }),
    ...rest,
  });
}

/** Sets a property as an own, enumerable data property, also for `__proto__`. */
function defineKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------
// Values

/** One character, mostly plain, sometimes a lone surrogate, NUL, RTL override, emoji, … */
const char = fc.oneof(
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
const anyText = fc.string({ unit: char, maxLength: 30 });

/** A single code point that PostgreSQL can store: the stuff of valid text. */
const validChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('中', '文', '😀', 'é', 'ب', 'ש', '\u202e', ' ') },
);
const validText = (minLength: number, maxLength: number) =>
  fc.string({ unit: validChar, minLength, maxLength });

/** Strings next to limits: 201 (names), 501 (descriptions), 1001, 2001, 10001 (content), … */
const longString = fc
  .tuple(fc.constantFrom(200, 201, 500, 501, 1001, 2001, 2049, 10_001, 100_000), validChar)
  .map(([n, c]) => c.repeat(n));

const BAD_URLS = [
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
const GOOD_ODD_URLS = [
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
const specialString = fc.constantFrom(...SPECIAL_STRINGS);
const number = fc.oneof(
  fc.integer(),
  fc.double(), // NaN and ±Infinity go out as null
  fc.constantFrom(-0, 0, 1, -1, 1.5, 10, 11, 100, 101, 2 ** 53 + 2, -(2 ** 53), 1e308, 5e-324),
);

const SHAPE_KEYS = [
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
const weirdKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'apiKey', ''),
  fc.constantFrom(...SHAPE_KEYS),
  anyText,
);

const scalar = fc.oneof(
  { weight: 3, arbitrary: anyText },
  { weight: 2, arbitrary: specialString },
  { weight: 2, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: longString },
);
/** Any JSON-able value, of any type: what a field gets when its type is wrong. */
const weird: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(weirdKey, scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.anything({ key: weirdKey, maxDepth: 3, values: [scalar] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// References to the records seeded before each block (markers), and to nothing.
const slugRef = fc.constantFrom('@@SLUG_A@@', '@@SLUG_B@@', 'no-such-project');
const taskRef = fc.constantFrom('@@TASK_0@@', '@@TASK_1@@', '@@TASK_2@@', '@@TASK_3@@', '@@TASK_4@@', 'nope');
const linkUrl = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 40 }).map((n) => `https://fuzz.example.org/p/${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('@@URL_CODE@@', '@@URL_WEB@@', '@@URL_TASK_0@@') },
);
const taskUrl = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 200 }).map((n) => `https://fuzz.example.org/task/${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('@@URL_TASK_0@@', '@@URL_TASK_3@@', '@@URL_CODE@@') },
);
const webhookRef = fc.constantFrom('@@WEBHOOK@@', 'no-such-webhook');
// an attempt of a change and a ping (of the seeded webhook), one of another webhook, and none
const deliveryRef = fc.constantFrom('@@ATTEMPT@@', '@@PING@@', '@@OTHER_ATTEMPT@@', '999999999', '0');
/** The kind of reference a route's path parameter takes. */
const refFor = (route: RouteName) =>
  ROUTES[route].path.includes('{slug}')
    ? slugRef
    : route === 'rotateSecret'
      ? webhookRef
      : route === 'getDelivery'
        ? deliveryRef
        : taskRef;
const linkType = fc.constantFrom('WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER');
const taskStatus = fc.constantFrom('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED');

// ---------------------------------------------------------------------------------------------
// Valid requests, to mutate and to send with key variations

/**
 * Valid names that make the same slug (case, spacing, punctuation, diacritics, pinyin, nothing
 * left, cut at 100 characters): projects that match by slug, tags that need `-2` suffixes.
 */
const slugTwins = fc.constantFrom(
  'Deep Seek',
  'deep-seek',
  'DEEP  SEEK!',
  'Déep Seek',
  ' deep seek ',
  '深度',
  'shen du',
  'Shen Du',
  '!!!',
  '😀',
  '---',
  'a'.repeat(101),
  `${'a'.repeat(100)}b`,
  'Tag',
  'tag',
  'TAG',
);
const validName = (max: number) =>
  fc.oneof(
    fc.nat({ max: 30 }).map((n) => `Fuzz ${n}`),
    validText(1, max),
    slugTwins,
  );

const validProject = fc.record(
  {
    name: validName(30),
    nameEn: fc.oneof(validText(1, 30), slugTwins),
    description: validText(10, 40),
    descriptionEn: validText(10, 40),
    content: validText(0, 40),
    contentEn: validText(0, 40),
    status: fc.constantFrom('ACTIVE', 'ARCHIVED'),
    source: validText(0, 10),
    tags: fc.array(
      fc.record(
        {
          name: validName(20),
          nameEn: fc.oneof(validText(1, 20), slugTwins),
        },
        { requiredKeys: ['name'] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    links: fc.uniqueArray(
      fc.record({ type: linkType, url: linkUrl, title: validText(0, 20) }, { requiredKeys: ['type', 'url'] }),
      { minLength: 1, maxLength: 4, selector: (l) => l.url },
    ),
  },
  { requiredKeys: ['name', 'description', 'tags', 'links'] },
);

const valid: Record<RouteName, fc.Arbitrary<{ path: string; json?: Record<string, unknown> }>> = {
  upsert: fc
    .array(validProject, { minLength: 1, maxLength: 3 })
    .map((projects) => ({ path: pathOf('upsert'), json: { projects } })),
  getProject: slugRef.map((slug) => ({ path: pathOf('getProject', slug) })),
  deleteProject: slugRef.map((slug) => ({ path: pathOf('deleteProject', slug), json: {} })),
  createTasks: fc
    .array(fc.record({ sourceUrl: taskUrl, sourceType: validText(1, 12) }, { requiredKeys: ['sourceUrl'] }), {
      minLength: 1,
      maxLength: 4,
    })
    .map((tasks) => ({ path: pathOf('createTasks'), json: { tasks } })),
  findTasks: fc
    .record(
      { status: taskStatus, limit: fc.integer({ min: 1, max: 100 }), offset: fc.nat({ max: 20 }) },
      { requiredKeys: [] },
    )
    .map((q) => ({ path: `${pathOf('findTasks')}?${new URLSearchParams(q as Record<string, string>)}` })),
  getTask: taskRef.map((id) => ({ path: pathOf('getTask', id) })),
  patchTask: fc
    .tuple(
      taskRef,
      fc.record(
        {
          status: taskStatus,
          explorationData: fc.dictionary(validText(1, 8), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
          explorationSummary: validText(0, 40),
          errorMessage: validText(0, 40),
        },
        { requiredKeys: ['status'] },
      ),
    )
    .map(([id, json]) => ({ path: pathOf('patchTask', id), json })),
  completeTask: fc
    .tuple(taskRef, validProject)
    .map(([id, explorationData]) => ({ path: pathOf('completeTask', id), json: { explorationData } })),
  checkTasks: fc
    .record(
      {
        urls: fc.array(fc.oneof(taskUrl, linkUrl), { minLength: 1, maxLength: 5 }),
        sourceType: validText(0, 8),
      },
      { requiredKeys: ['urls'] },
    )
    .map((json) => ({ path: pathOf('checkTasks'), json })),
  checkProjects: fc
    .array(
      fc
        .record(
          { codehostUrl: linkUrl, modelhubUrl: linkUrl, websiteUrl: linkUrl, slug: slugRef },
          { requiredKeys: [] },
        )
        .filter((p) => Object.keys(p).length > 0),
      { minLength: 1, maxLength: 5 },
    )
    .map((projects) => ({ path: pathOf('checkProjects'), json: { projects } })),
  rotateSecret: fc
    .tuple(webhookRef, fc.integer({ min: 0, max: 604_800 }))
    .map(([id, graceSeconds]) => ({ path: pathOf('rotateSecret', id), json: { graceSeconds } })),
  getDelivery: deliveryRef.map((id) => ({ path: pathOf('getDelivery', id) })),
};

const validRequest = fc
  .constantFrom(...ROUTE_NAMES)
  .chain((route) => valid[route].map((v) => ({ route, ...v })));
const validBodyRequest = fc
  .constantFrom(...BODY_ROUTES)
  .chain((route) => valid[route].map((v) => ({ route, path: v.path, json: v.json ?? {} })));

// ---------------------------------------------------------------------------------------------
// (a) Bodies generated from scratch: the right keys with values of any type, arrays of any size

type Shape = string | { arr: Shape } | { obj: Record<string, Shape> };
const arr = (of: Shape): Shape => ({ arr: of });
const obj = (fields: Record<string, Shape>): Shape => ({ obj: fields });

const projectShape = obj({
  name: 'text',
  nameEn: 'text',
  description: 'text',
  descriptionEn: 'text',
  content: 'text',
  contentEn: 'text',
  status: 'projectStatus',
  source: 'text',
  tags: arr(obj({ name: 'text', nameEn: 'text' })),
  links: arr(obj({ type: 'linkType', url: 'url', title: 'text' })),
});
const SHAPES: Partial<Record<RouteName, Shape>> = {
  upsert: obj({ projects: arr(projectShape) }),
  deleteProject: obj({ slug: 'text' }),
  createTasks: obj({ tasks: arr(obj({ sourceUrl: 'url', sourceType: 'text' })) }),
  patchTask: obj({
    status: 'taskStatus',
    explorationData: 'json',
    explorationSummary: 'text',
    errorMessage: 'text',
  }),
  completeTask: obj({ explorationData: projectShape }),
  checkTasks: obj({ urls: arr('url'), sourceType: 'text' }),
  checkProjects: obj({
    projects: arr(obj({ codehostUrl: 'url', modelhubUrl: 'url', websiteUrl: 'url', slug: 'text' })),
  }),
  rotateSecret: obj({ graceSeconds: 'seconds' }),
};
const LEAVES: Record<string, fc.Arbitrary<unknown>> = {
  text: fc.oneof(validText(0, 30), anyText, specialString, longString),
  url: fc.oneof(linkUrl, taskUrl, fc.constantFrom(...BAD_URLS, ...GOOD_ODD_URLS), fc.webUrl()),
  linkType: fc.oneof(linkType, fc.constantFrom('GITHUB', 'website', 'HUGGINGFACE', '')),
  projectStatus: fc.oneof(fc.constantFrom('ACTIVE', 'ARCHIVED'), fc.constantFrom('DRAFT', 'active', '')),
  taskStatus: fc.oneof(taskStatus, fc.constantFrom('DONE', 'pending', 'IN PROGRESS', '')),
  seconds: fc.oneof(
    fc.integer({ min: -1, max: 604_801 }),
    fc.constantFrom(0, 604_800, 604_801, -1, 1.5, '60'),
  ),
  json: fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.anything({ key: weirdKey, maxDepth: 3, values: [scalar] }),
  ),
};
const ARRAY_SIZES = fc.constantFrom(0, 1, 10, 11, 50, 51, 100, 101);

function shaped(shape: Shape): fc.Arbitrary<unknown> {
  if (typeof shape === 'string') {
    const leaf = LEAVES[shape];
    if (!leaf) throw new Error(`no leaf ${shape}`);
    return fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 1, arbitrary: weird });
  }
  if ('arr' in shape) {
    const element = shaped(shape.arr);
    return fc.oneof(
      { weight: 5, arbitrary: fc.array(element, { maxLength: 3 }) },
      // the same element n times: array sizes at and past the limits, duplicates included
      {
        weight: 1,
        arbitrary: fc.tuple(element, ARRAY_SIZES).map(([e, n]) => Array.from({ length: n }, () => e)),
      },
      { weight: 1, arbitrary: weird },
    );
  }
  const fields = Object.fromEntries(Object.entries(shape.obj).map(([k, s]) => [k, shaped(s)]));
  const record = fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.array(fc.tuple(weirdKey, weird), { maxLength: 2 }))
    .map(([value, extra]) => {
      for (const [k, v] of extra) defineKey(value, k, v);
      return value;
    });
  return fc.oneof({ weight: 6, arbitrary: record }, { weight: 1, arbitrary: weird });
}

const generatedRequest: fc.Arbitrary<Req> = fc
  .constantFrom(...BODY_ROUTES)
  .chain((route) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 8, arbitrary: shaped(SHAPES[route] ?? obj({})) },
          { weight: 1, arbitrary: fc.anything({ key: weirdKey, maxDepth: 4 }) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
        ),
        refFor(route),
      )
      .map(([json, param]) =>
        req(route, { path: pathOf(route, param), body: JSON.stringify(json) ?? 'undefined' }),
      ),
  );

// ---------------------------------------------------------------------------------------------
// (b) Valid bodies, mutated

type Mutation =
  | { kind: 'delete' | 'null' | 'empty' | 'duplicate' | 'wrap' | 'stringify' }
  | { kind: 'set'; value: unknown }
  | { kind: 'long'; n: number; c: string }
  | { kind: 'resize'; n: number }
  | { kind: 'addKey'; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom<Mutation>(
    { kind: 'delete' },
    { kind: 'null' },
    { kind: 'empty' },
    { kind: 'duplicate' },
    { kind: 'wrap' },
    { kind: 'stringify' },
  ),
  weird.map((value): Mutation => ({ kind: 'set', value })),
  fc.constantFrom(...BAD_URLS, ...GOOD_ODD_URLS).map((value): Mutation => ({ kind: 'set', value })),
  fc
    .constantFrom('GITHUB', 'website', 'DRAFT', 'DONE', 'pending', 'ACTIVE ', '')
    .map((value): Mutation => ({ kind: 'set', value })),
  fc.string({ unit: char, minLength: 1, maxLength: 4 }).map((value): Mutation => ({ kind: 'set', value })),
  fc
    .tuple(fc.constantFrom(1, 10, 191, 200, 201, 490, 501, 1001, 2001, 2049, 10_001), char)
    .map(([n, c]): Mutation => ({ kind: 'long', n, c })),
  ARRAY_SIZES.map((n): Mutation => ({ kind: 'resize', n })),
  fc.tuple(weirdKey, weird).map(([key, value]): Mutation => ({ kind: 'addKey', key, value })),
);

/** Where a mutation applies: one of the positions with that key (any position when none has it). */
const mutationTarget = fc.tuple(fc.option(fc.constantFrom(...SHAPE_KEYS), { nil: undefined }), fc.nat());

interface Position {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

function positions(holder: { body: unknown }): Position[] {
  const found: Position[] = [{ parent: holder, key: 'body' }];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        found.push({ parent: value, key: i });
        walk(v);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        found.push({ parent: value as Record<string, unknown>, key: k });
        walk(v);
      }
    }
  };
  walk(holder.body);
  return found;
}

function mutate(body: unknown, mutations: [[string | undefined, number], Mutation][]): unknown {
  const holder = { body: structuredClone(body) };
  for (const [[key, index], m] of mutations) {
    const all = positions(holder);
    const keyed = all.filter((p) => p.key === key);
    const choices = keyed.length > 0 ? keyed : all;
    const at = choices[index % choices.length]!;
    const parent = at.parent as Record<string | number, unknown>;
    const current = parent[at.key];
    switch (m.kind) {
      case 'delete':
        if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
        else delete parent[at.key];
        break;
      case 'null':
        parent[at.key] = null;
        break;
      case 'empty':
        parent[at.key] = Array.isArray(current) ? [] : typeof current === 'string' ? '' : {};
        break;
      case 'duplicate':
        // a link listed twice (same url), a tag or a task repeated
        if (Array.isArray(current) && current.length > 0) current.push(structuredClone(current[0]));
        else if (Array.isArray(at.parent)) at.parent.push(structuredClone(current));
        break;
      case 'wrap':
        parent[at.key] = [current];
        break;
      case 'stringify':
        parent[at.key] = JSON.stringify(current) ?? 'undefined';
        break;
      case 'set':
        parent[at.key] = m.value;
        break;
      case 'long':
        parent[at.key] = (typeof current === 'string' ? current : '') + m.c.repeat(m.n);
        break;
      case 'resize': {
        const items = Array.isArray(current) && current.length > 0 ? current : [current];
        parent[at.key] = Array.from({ length: m.n }, (_, i) => structuredClone(items[i % items.length]));
        break;
      }
      case 'addKey':
        if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
          defineKey(current as Record<string, unknown>, m.key, m.value);
        } else {
          parent[at.key] = { [m.key]: m.value };
        }
        break;
    }
  }
  return holder.body;
}

const mutatedRequest: fc.Arbitrary<Req> = fc
  .tuple(validBodyRequest, fc.array(fc.tuple(mutationTarget, mutation), { minLength: 1, maxLength: 3 }))
  .map(([v, mutations]) =>
    req(v.route, { path: v.path, body: JSON.stringify(mutate(v.json, mutations)) ?? 'undefined' }),
  );

// ---------------------------------------------------------------------------------------------
// (c) Raw bodies: truncated JSON, BOMs, number literals JSON.stringify never writes, duplicate
// keys, deep nesting, bytes that are not UTF-8, other content types, empty, over the size limit

const JUNK_BODIES = [
  '',
  ' ',
  '\n\t ',
  '\ufeff',
  'undefined',
  'NaN',
  "{'projects': []}",
  '{"projects": [],}',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '[1,2',
  '{',
  '}',
  '"',
  '\u0000',
  '{"\u0000":1}',
  'projects=1&tasks=2',
  '<?xml version="1.0"?><projects/>',
  '--x\r\nContent-Disposition: form-data; name="projects"\r\n\r\n[]\r\n--x--',
  'null',
  'true',
  '0',
  '"string"',
  '[]',
  '[{}]',
  '{}',
  '{"apiKey":"@@KEY@@"}',
];
const LITERALS = [
  '1e309',
  '-1e309',
  '-0',
  '0.0',
  '1e-400',
  '12345678901234567890123456789',
  '9007199254740993',
  '-9007199254740993',
  '1.7976931348623157e308',
  '5e-324',
  '1E2',
  'true',
  'null',
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00\\ud800"',
  '"\\u202e\\u200f"',
  '"\\uD83D\\uDE00"',
  '{}',
  '[]',
  '[[]]',
  '[null]',
  '{"__proto__":{"name":"x","status":"IN_PROGRESS"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"__proto__"',
];
const VALID_PROJECT_JSON =
  '{"name":"Raw project","description":"A raw project body.","tags":[{"name":"raw"}],"links":[{"type":"WEBSITE","url":"https://raw.example.org/"}]}';
/** `§` is where a literal goes. */
const TEMPLATES: [RouteName, string][] = [
  ['upsert', '{"projects":§}'],
  ['upsert', '{"projects":[§]}'],
  ['upsert', `{"projects":[${VALID_PROJECT_JSON.replace('"Raw project"', '§')}]}`],
  ['upsert', `{"projects":[${VALID_PROJECT_JSON.replace('[{"name":"raw"}]', '§')}]}`],
  ['upsert', `{"projects":[${VALID_PROJECT_JSON.replace('"WEBSITE"', '§')}]}`],
  ['upsert', `{"projects":[${VALID_PROJECT_JSON}],"projects":§}`],
  ['upsert', `{"__proto__":{"projects":[${VALID_PROJECT_JSON}]},"projects":§}`],
  ['upsert', `{"projects":[${VALID_PROJECT_JSON}],"apiKey":§}`],
  ['createTasks', '{"tasks":§}'],
  ['createTasks', '{"tasks":[{"sourceUrl":§}]}'],
  ['createTasks', '{"tasks":[{"sourceUrl":"https://raw.example.org/t","sourceType":§}]}'],
  ['patchTask', '{"status":§}'],
  ['patchTask', '{"status":"IN_PROGRESS","status":§}'],
  ['patchTask', '{"status":"IN_PROGRESS","explorationData":§}'],
  ['patchTask', '{"status":"FAILED","errorMessage":§,"explorationSummary":§}'],
  ['completeTask', '{"explorationData":§}'],
  ['completeTask', `{"explorationData":${VALID_PROJECT_JSON.replace('"Raw project"', '§')}}`],
  ['checkTasks', '{"urls":§}'],
  ['checkTasks', '{"urls":[§],"sourceType":§}'],
  ['checkProjects', '{"projects":[{"slug":§}]}'],
  ['checkProjects', '{"projects":[{"codehostUrl":§,"websiteUrl":§}]}'],
  ['deleteProject', '{"slug":§}'],
];
const templated = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.constantFrom(...LITERALS))
  .map(([[route, template], literal]) => ({ route, text: template.replaceAll('§', literal) }));

const deepJson = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.constantFrom(10, 63, 64, 65, 66, 1000, 100_000), fc.boolean())
  .map(([open, depth, closed]) => {
    const close = open === '[' ? ']' : '}';
    const inner = `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
    return inner;
  });

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
];

const rawBody: fc.Arbitrary<{ route: RouteName; body: string | Uint8Array }> = fc.oneof(
  // truncated JSON
  {
    weight: 20,
    arbitrary: fc.tuple(validBodyRequest, fc.nat()).map(([v, n]) => {
      const text = JSON.stringify(v.json);
      return { route: v.route, body: text.slice(0, n % Math.max(text.length, 1)) };
    }),
  },
  // byte order marks: one is skipped, more are not JSON
  {
    weight: 10,
    arbitrary: fc
      .tuple(validBodyRequest, fc.constantFrom('\ufeff', '\ufeff\ufeff', ' \ufeff', 'END'))
      .map(([v, bom]) => {
        const text = JSON.stringify(v.json);
        return { route: v.route, body: bom === 'END' ? `${text}\ufeff` : bom + text };
      }),
  },
  {
    weight: 15,
    arbitrary: fc
      .tuple(fc.constantFrom(...BODY_ROUTES), fc.constantFrom(...JUNK_BODIES))
      .map(([route, body]) => ({ route, body })),
  },
  {
    weight: 10,
    arbitrary: fc.tuple(fc.constantFrom(...BODY_ROUTES), anyText).map(([route, body]) => ({ route, body })),
  },
  { weight: 25, arbitrary: templated.map(({ route, text }) => ({ route, body: text })) },
  {
    weight: 10,
    arbitrary: fc.tuple(fc.constantFrom(...BODY_ROUTES), deepJson).map(([route, deep]) => ({
      route,
      body:
        route === 'patchTask'
          ? `{"status":"IN_PROGRESS","explorationData":{"d":${deep}}}`
          : route === 'completeTask'
            ? `{"explorationData":${deep}}`
            : deep,
    })),
  },
  // not UTF-8
  {
    weight: 10,
    arbitrary: fc
      .tuple(fc.constantFrom(...BODY_ROUTES), fc.uint8Array({ maxLength: 48 }))
      .map(([route, bytes]) => ({
        route,
        body: Buffer.concat([Buffer.from('{"projects":[{"name":"'), Buffer.from(bytes), Buffer.from('"}]}')]),
      })),
  },
  // over the 5 MB limit: 413 before anything else
  {
    weight: 1,
    arbitrary: fc.constantFrom(...BODY_ROUTES).map((route) => ({
      route,
      body: `{"projects":[{"content":"${'x'.repeat(5 * 1024 * 1024)}"}]}`,
    })),
  },
);

const rawRequest: fc.Arbitrary<Req> = fc
  .tuple(
    rawBody,
    fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
    slugRef,
    taskRef,
    webhookRef,
  )
  .map(([{ route, body }, contentType, slug, id, hook]) => {
    const param = route === 'deleteProject' ? slug : route === 'rotateSecret' ? hook : id;
    const headers: [string, string][] = [KEY_HEADER];
    // no content-type at all: the body goes as bytes, which fetch sends without one
    if (contentType !== undefined) headers.push(['content-type', contentType]);
    const sent = contentType === undefined && typeof body === 'string' ? Buffer.from(body) : body;
    return req(route, { path: pathOf(route, param), headers, body: sent });
  });

// ---------------------------------------------------------------------------------------------
// (d) Query strings and path parameters

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

const urlRequest: fc.Arbitrary<Req> = fc.oneof(
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

// ---------------------------------------------------------------------------------------------
// (e) Key variations

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

const keyRequest: fc.Arbitrary<Req> = fc
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

// ---------------------------------------------------------------------------------------------
// Checks

const TABLES = [
  'projects',
  'tags',
  'project_tags',
  'links',
  'discovery_tasks',
  'webhooks',
  'webhook_attempts',
] as const;
type Fingerprint = Record<(typeof TABLES)[number], string>;
/**
 * Per table: row count and the newest xmin. Every committed insert or update writes a tuple
 * with a new, larger transaction id; every delete lowers the count.
 */
/** The next transaction id to be assigned: while it stays the same, nothing was written. */
const NEXT_XID = 'select pg_snapshot_xmax(pg_current_snapshot())::text as xid';
interface DbState {
  xid: string;
  tables: Fingerprint;
}
const FINGERPRINT = `select ${TABLES.map((t) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${t}) as ${t}`).join(', ')}`;

interface Reply {
  status: number;
  text: string;
  contentType: string | null;
  json?: any;
}

/** What is wrong with a response's envelope, if anything. */
function envelopeProblem(res: Reply): string | undefined {
  if (res.status >= 500) return `status ${res.status}`;
  try {
    res.json = JSON.parse(res.text);
  } catch {
    return 'the body is not JSON';
  }
  const json = res.json;
  if (!res.contentType?.startsWith('application/json')) return `content-type ${res.contentType}`;
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return 'the body is not a JSON object';
  if (typeof json.success !== 'boolean') return '`success` is not a boolean';
  if (json.success) return res.status === 200 ? undefined : `success with status ${res.status}`;
  if (res.status < 400) return `a failure with status ${res.status}`;
  if (typeof json.error !== 'string' || json.error === '') return '`error` is not a non-empty string';
  if (!Array.isArray(json.details) || !json.details.every((d: unknown) => typeof d === 'string')) {
    return '`details` is not an array of strings';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

describe.each(targets)('fuzzing every endpoint on $name', (target) => {
  const s = useServer(target);
  let values: Record<string, string> = {};
  let last: DbState | undefined;
  let sent = 0;
  let statuses: Record<number, number> = {};
  const perRoute: Partial<Record<RouteName, number>> = {};
  let seeds = 0;
  const report: string[] = [];

  const resolve = (text: string) => text.replace(/@@([A-Z0-9_]+)@@/g, (m, name: string) => values[name] ?? m);

  /** The database's fingerprint, taken again only when a transaction id was used since `previous`. */
  async function dbState(previous?: DbState): Promise<DbState> {
    const xid = (await s.db.pool.query(NEXT_XID)).rows[0].xid as string;
    if (previous?.xid === xid) return previous;
    return { xid, tables: (await s.db.pool.query(FINGERPRINT)).rows[0] };
  }

  /** Two projects and five tasks (PENDING, IN_PROGRESS, FAILED, COMPLETED, retried), fresh per block. */
  async function seed() {
    const n = ++seeds;
    const base = `https://seed.example.org/${n}`;
    const project = (name: string, links: { type: string; url: string }[]) => ({
      name: `种子 ${n} ${name}`,
      nameEn: `Seed ${n} ${name}`,
      description: 'A project seeded for fuzzing.',
      tags: [{ name: 'seed' }],
      links,
    });
    const a = project('A', [
      { type: 'CODEHOST', url: `${base}/code` },
      { type: 'WEBSITE', url: `${base}/web` },
    ]);
    const b = project('B', [{ type: 'PAPER', url: `${base}/paper` }]);
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await s.call(method, path, { body });
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(200);
      return r;
    };
    await call('POST', '/api/webhook/projects', { projects: [a, b] });
    const taskUrls = Array.from({ length: 5 }, (_, i) => `${base}/task/${i}`);
    await call('POST', '/api/discovery/tasks', { tasks: taskUrls.map((sourceUrl) => ({ sourceUrl })) });
    const { rows } = await s.db.pool.query(
      'select id, source_url from discovery_tasks where source_url = any($1::text[])',
      [taskUrls],
    );
    const ids = taskUrls.map((u) => rows.find((r: any) => r.source_url === u)!.id as string);
    const patch = (i: number, status: string) => call('PATCH', `/api/discovery/tasks/${ids[i]}`, { status });
    await patch(1, 'IN_PROGRESS');
    await patch(2, 'IN_PROGRESS');
    await patch(2, 'FAILED');
    await call('POST', `/api/discovery/tasks/${ids[3]}/complete`, { explorationData: a });
    await patch(4, 'IN_PROGRESS');
    await patch(4, 'FAILED');
    await patch(4, 'PENDING');
    // A webhook (never sent to: no dispatcher runs here) with an attempt at a change and a ping, and
    // another webhook's attempt.
    const hook = async () =>
      (await call('POST', '/api/webhooks', { url: `https://203.0.113.9/${n}`, events: ['*'] })).json.webhook
        .id as string;
    const [webhook, other] = [await hook(), await hook()];
    await call('POST', '/api/discovery/tasks', { tasks: [{ sourceUrl: `${base}/task/hooked` }] });
    const attempts = await s.db.pool.query(
      `insert into webhook_attempts (webhook_id, delivery_id, change_id, type, message_id, event, status_code,
         error, success, duration_ms, request_url, request_headers, request_body, response_headers, response_body)
       select webhook_id, id, change_id, 'change', null, 'task.created', 503, 'HTTP 503', false, 9,
         'https://203.0.113.9/', '{"webhook-id":"chg_1"}'::jsonb, '{}', '{"retry-after":"1"}'::jsonb, 'busy'
       from webhook_deliveries where webhook_id = any($1::text[])
       union all
       select $2, null, null, 'ping', 'ping_seed', 'ping', null, 'no answer', false, 9,
         'https://203.0.113.9/', '{}'::jsonb, '{"type":"ping"}', null, null
       returning id::text, webhook_id, type`,
      [[webhook, other], webhook],
    );
    const attemptOf = (w: string, type: string) =>
      attempts.rows.find((r: any) => r.webhook_id === w && r.type === type)!.id as string;
    const slugs = await s.db.pool.query(
      'select p.slug, l.url from projects p join links l on l.project_id = p.id where l.url = any($1::text[])',
      [[`${base}/code`, `${base}/paper`]],
    );
    const slugOf = (url: string) => slugs.rows.find((r: any) => r.url === url)!.slug as string;
    values = {
      KEY: s.key,
      KEY_UPPER: s.key.toUpperCase(),
      KEY_PREFIX: s.key.slice(0, -1),
      SLUG_A: slugOf(`${base}/code`),
      SLUG_B: slugOf(`${base}/paper`),
      URL_CODE: `${base}/code`,
      URL_WEB: `${base}/web`,
      URL_TASK_0: taskUrls[0]!,
      URL_TASK_3: taskUrls[3]!,
      WEBHOOK: webhook,
      ATTEMPT: attemptOf(webhook, 'change'),
      PING: attemptOf(webhook, 'ping'),
      OTHER_ATTEMPT: attemptOf(other, 'change'),
      ...Object.fromEntries(ids.map((id, i) => [`TASK_${i}`, id])),
    };
    last = undefined;
  }

  async function send(r: Req): Promise<Reply> {
    const headers = new Headers();
    for (const [k, v] of r.headers) headers.append(k, resolve(v));
    const body = typeof r.body === 'string' ? resolve(r.body) : r.body;
    const res = await fetch(s.baseUrl + resolve(r.path), { method: r.method, headers, body });
    sent++;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (r.method === ROUTES[r.route].method) perRoute[r.route] = (perRoute[r.route] ?? 0) + 1;
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
  }

  /** Sends one request and checks the properties every response must have. */
  async function exercise(r: Req): Promise<void> {
    const before = last ?? (await dbState());
    last = undefined;
    const res = await send(r);
    const after = await dbState(before);
    last = after;
    const fail = (problem: string) => {
      throw new Error(`${problem}\n  → ${res.status} ${res.text.slice(0, 500)}`);
    };
    const envelope = envelopeProblem(res);
    if (envelope) fail(envelope);
    if (r.expect401 && (res.status !== 401 || res.json.error !== 'Unauthorized')) {
      fail('a request without a valid key was not refused with 401');
    }
    const readOnly =
      r.method === 'GET' || (r.method === 'POST' && READ_ONLY_POSTS.has(r.path.split('?')[0] ?? ''));
    if (res.status < 400 && !readOnly) return;
    const changed = TABLES.filter((t) => before.tables[t] !== after.tables[t]);
    if (changed.length === 0) return;
    // The one documented write of a refusal: complete with invalid data marks the task FAILED.
    if (
      res.status === 400 &&
      res.json.error === 'Invalid exploration data format' &&
      changed.length === 1 &&
      changed[0] === 'discovery_tasks' &&
      before.tables.discovery_tasks.split(':')[0] === after.tables.discovery_tasks.split(':')[0]
    ) {
      const newest = Number(before.tables.discovery_tasks.split(':')[1]);
      const { rows } = await s.db.pool.query(
        'select id, status from discovery_tasks where xmin::text::bigint > $1',
        [newest],
      );
      const resolved = resolve(r.path);
      if (rows.length === 1 && rows[0].status === 'FAILED' && resolved.includes(`/${rows[0].id}/complete`))
        return;
    }
    fail(`${readOnly ? 'a read' : 'a refused request'} wrote to ${changed.join(', ')}`);
  }

  async function fuzz(name: string, share: number, arbitrary: fc.Arbitrary<Req>) {
    await seed();
    const numRuns = Math.ceil(RUNS * share);
    const before = sent;
    statuses = {};
    const started = performance.now();
    await fc.assert(fc.asyncProperty(arbitrary, exercise), { seed: SEED, numRuns });
    const seconds = (performance.now() - started) / 1000;
    const tally = Object.entries(statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    report.push(`${name}: ${sent - before} requests in ${seconds.toFixed(1)} s (${tally})`);
  }

  it('(a) bodies generated from scratch', () => fuzz('generated', 0.25, generatedRequest), BLOCK_TIMEOUT);
  it('(b) valid bodies, mutated', () => fuzz('mutated', 0.35, mutatedRequest), BLOCK_TIMEOUT);
  it(
    '(c) raw bodies: not JSON, truncated, BOM, odd literals, content types',
    () => fuzz('raw', 0.1, rawRequest),
    BLOCK_TIMEOUT,
  );
  it('(d) query strings and path parameters', () => fuzz('urls', 0.2, urlRequest), BLOCK_TIMEOUT);
  it('(e) key variations', () => fuzz('keys', 0.1, keyRequest), BLOCK_TIMEOUT);

  it(`sent at least FUZZ_RUNS (${RUNS}) requests`, () => {
    const routes = ROUTE_NAMES.map((r) => `${ROUTES[r].method} ${ROUTES[r].path} ×${perRoute[r] ?? 0}`);
    console.info(
      `fuzz on ${target.name} (seed ${SEED}): ${sent} requests\n  ${[...report, ...routes].join('\n  ')}`,
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    for (const route of ROUTE_NAMES) expect(perRoute[route], route).toBeGreaterThan(0);
  });
});
