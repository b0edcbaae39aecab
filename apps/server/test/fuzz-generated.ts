import fc from 'fast-check';
import { BODY_ROUTES, defineKey, pathOf, type Req, type RouteName, req } from './fuzz-routes.ts';
import {
  ARRAY_SIZES,
  anyText,
  BAD_URLS,
  GOOD_ODD_URLS,
  linkType,
  linkUrl,
  longString,
  refFor,
  scalar,
  specialString,
  taskStatus,
  taskUrl,
  validText,
  weird,
  weirdKey,
} from './fuzz-values.ts';

/**
 * fuzz.test.ts's (a) (docs/keys-and-limits.md#hostile-input): bodies generated from scratch, the
 * right keys with values of any type, arrays of any size.
 */

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

export const generatedRequest: fc.Arbitrary<Req> = fc
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
