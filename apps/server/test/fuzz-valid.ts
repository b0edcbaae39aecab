import fc from 'fast-check';
import { BODY_ROUTES, pathOf, ROUTE_NAMES, type RouteName } from './fuzz-routes.ts';
import {
  deliveryRef,
  linkType,
  linkUrl,
  slugRef,
  taskRef,
  taskStatus,
  taskUrl,
  validText,
  webhookRef,
} from './fuzz-values.ts';

/**
 * Valid requests for fuzz.test.ts (docs/keys-and-limits.md#hostile-input), to mutate and to send
 * with key variations.
 */

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

export const validProject = fc.record(
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

export const validRequest = fc
  .constantFrom(...ROUTE_NAMES)
  .chain((route) => valid[route].map((v) => ({ route, ...v })));
export const validBodyRequest = fc
  .constantFrom(...BODY_ROUTES)
  .chain((route) => valid[route].map((v) => ({ route, path: v.path, json: v.json ?? {} })));
