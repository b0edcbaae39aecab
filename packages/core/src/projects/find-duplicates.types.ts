import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text, timestamp } from '../schemas/common.ts';
import { LinkType } from '../schemas/project.ts';
import { queryBoolean, queryInt } from '../schemas/query.ts';

function groupProject(id: string, slug: string, nameEn: string, revisions: number, locked: boolean) {
  return {
    id,
    slug,
    name: ex.QWEN_INPUT.name,
    nameEn,
    description: ex.QWEN_INPUT.description,
    descriptionEn: ex.QWEN_INPUT.descriptionEn,
    links: [{ id: `${id}-l1`, type: 'CODEHOST', url: 'https://github.com/QwenLM/Qwen', title: null }],
    updatedAt: ex.UPDATED_AT,
    revisions,
    locked,
  };
}

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
      'come in order, link groups first, each by key; projects oldest first, each with what an operator compares ' +
      '(descriptions, links, `updatedAt`, `revisions`, `locked`). `suggestedInto` is the slug to keep: a locked ' +
      'project, else the one with the most revisions not via upsert or complete, else the most links, else the ' +
      'oldest. A group is listed while some pair of its projects is not dismissed ' +
      '(`POST /api/projects/duplicates/dismiss`). With `dismissed=true` the answer lists the dismissed pairs ' +
      'instead (`dismissals`, newest first; `groups` is empty). Follow `nextCursor` (null on the last page; also in the `Link` header).',
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
            groupProject(ex.QWEN_ID, ex.QWEN_SLUG, ex.QWEN_INPUT.nameEn, 4, true),
            groupProject(ex.DUPLICATE_ID, 'tongyi-qianwen', 'Tongyi Qianwen', 1, false),
          ],
          suggestedInto: ex.QWEN_SLUG,
        },
        {
          reason: 'name',
          key: ex.QWEN_INPUT.name,
          projects: [
            groupProject(ex.QWEN_ID, ex.QWEN_SLUG, ex.QWEN_INPUT.nameEn, 4, true),
            groupProject(ex.DUPLICATE_ID, 'tongyi-qianwen', 'Tongyi Qianwen', 1, false),
          ],
          suggestedInto: ex.QWEN_SLUG,
        },
      ],
      nextCursor: 'ZDEubmFtZS7pgJrkuYnljYPpl64',
    },
  },
};

export const FindDuplicatesInput = z.object({
  cursor: text({ min: 1, max: 4000 }).optional().meta({ description: 'A `nextCursor` from the page before' }),
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
  dismissed: queryBoolean()
    .optional()
    .meta({ description: 'true: list the dismissed pairs (`dismissals`) instead of the groups' }),
});
export type FindDuplicatesInput = z.infer<typeof FindDuplicatesInput>;

export const DuplicateProject = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    nameEn: z.string().nullable(),
    description: z.string(),
    descriptionEn: z.string().nullable(),
    links: z.array(
      z.object({ id: z.string(), type: LinkType, url: z.string(), title: z.string().nullable() }),
    ),
    updatedAt: timestamp,
    revisions: count().meta({ description: 'The revisions kept of the project' }),
    locked: z.boolean(),
  })
  .meta({ id: 'DuplicateProject' });

export const DuplicateGroup = z.object({
  reason: z.enum(['link', 'name']),
  key: z.string().meta({ description: 'The shared url key, or the shared normalised name' }),
  projects: z.array(DuplicateProject),
  suggestedInto: z
    .string()
    .meta({ description: 'The slug of the project to keep (merge the others into it)' }),
});

const ProjectRef = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
});

export const Dismissal = z.object({
  projects: z.array(ProjectRef).meta({ description: 'The two projects said to be distinct' }),
  at: timestamp,
  actor: z.string().nullable(),
});

export const FindDuplicatesOutput = z.object({
  success: z.literal(true),
  groups: z.array(DuplicateGroup).meta({ description: 'The groups; empty with `dismissed=true`' }),
  dismissals: z
    .array(Dismissal)
    .optional()
    .meta({ description: 'With `dismissed=true` only: the dismissed pairs, newest first' }),
  nextCursor: z.string().nullable(),
});
