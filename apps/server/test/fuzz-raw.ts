import fc from 'fast-check';
import { BODY_ROUTES, KEY_HEADER, pathOf, type Req, type RouteName, req } from './fuzz-routes.ts';
import { validBodyRequest } from './fuzz-valid.ts';
import { anyText, slugRef, taskRef, webhookRef } from './fuzz-values.ts';

/**
 * fuzz.test.ts's (c) (docs/keys-and-limits.md#hostile-input): raw bodies: truncated JSON, BOMs,
 * number literals JSON.stringify never writes, duplicate keys, deep nesting, bytes that are not
 * UTF-8, other content types, empty, over the size limit.
 */

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

export const rawRequest: fc.Arbitrary<Req> = fc
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
