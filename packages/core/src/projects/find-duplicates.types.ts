import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { queryInt } from '../tasks/find-tasks.types.ts';

export const findDuplicatesMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'GET',
    path: '/api/projects/duplicates',
    protect: true,
    tags: ['projects'],
    summary: 'List groups of projects that look like one (a shared link key, or the same name)',
    description:
      'For an operator to merge (`POST /api/projects/{slug}/merge`); nothing is merged automatically. A group is ' +
      'either the projects having a link with one url key (`reason: "link"`, `key` the url key) or the projects whose ' +
      'name or English name is the same lower-cased with spaces and punctuation removed (`reason: "name"`). Groups ' +
      'come in order, link groups first, each by key; projects oldest first. Follow `nextCursor` (null on the last ' +
      'page; also in the `Link` header).',
  },
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: {
    request: { limit: 2 },
    response: {
      success: true,
      groups: [
        {
          reason: 'link',
          key: 'github.com/qwenlm/qwen',
          projects: [
            { id: ex.QWEN_ID, slug: ex.QWEN_SLUG, name: ex.QWEN_INPUT.name, nameEn: ex.QWEN_INPUT.nameEn },
            {
              id: ex.DUPLICATE_ID,
              slug: 'tongyi-qianwen',
              name: ex.QWEN_INPUT.name,
              nameEn: 'Tongyi Qianwen',
            },
          ],
        },
        {
          reason: 'name',
          key: ex.QWEN_INPUT.name,
          projects: [
            { id: ex.QWEN_ID, slug: ex.QWEN_SLUG, name: ex.QWEN_INPUT.name, nameEn: ex.QWEN_INPUT.nameEn },
            {
              id: ex.DUPLICATE_ID,
              slug: 'tongyi-qianwen',
              name: ex.QWEN_INPUT.name,
              nameEn: 'Tongyi Qianwen',
            },
          ],
        },
      ],
      nextCursor: 'ZDEubmFtZS7pgJrkuYnljYPpl64',
    },
  },
};

export const FindDuplicatesInput = z.object({
  cursor: text({ min: 1, max: 4000 }).optional().meta({ description: 'A `nextCursor` from the page before' }),
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
});

export const DuplicateGroup = z.object({
  reason: z.enum(['link', 'name']),
  key: z.string().meta({ description: 'The shared url key, or the shared normalised name' }),
  projects: z.array(
    z.object({ id: z.string(), slug: z.string(), name: z.string(), nameEn: z.string().nullable() }),
  ),
});

export const FindDuplicatesOutput = z.object({
  success: z.literal(true),
  groups: z.array(DuplicateGroup),
  nextCursor: z.string().nullable(),
});
