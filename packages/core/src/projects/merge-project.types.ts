import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';

export const mergeProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/projects/{slug}/merge',
    protect: true,
    tags: ['projects'],
    summary: 'Merge a project into another; its slug becomes an alias of the target',
    description:
      'One transaction: the links of `{slug}` whose url keys the target lacks and the tags it lacks are appended to ' +
      "the target's (in their order; a merge alone may take a project past 10 links or tags), tasks pointing at " +
      '`{slug}` point at the target, `{slug}` is removed and becomes an alias of the target: `GET /api/projects/{slug}` ' +
      'answers 301 to the target, a DELETE 409, and an upsert whose slug it is updates the target. Aliases of ' +
      '`{slug}` move on to the target. The feed records one `project.merged` (with `intoProjectId`, `intoSlug`). ' +
      '404 when either slug is unknown; 409 when merging a project into itself, into an alias, or an alias.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: 'tongyi-qianwen', into: ex.QWEN_SLUG },
    response: {
      success: true,
      data: { project: ex.QWEN_PROJECT, merged: { id: ex.DUPLICATE_ID, slug: 'tongyi-qianwen' } },
    },
  },
};

export const MergeProjectInput = z.object({
  slug: text().meta({ description: 'The project to merge (it is removed)' }),
  into: text({ min: 1 }).meta({ description: 'The slug of the project it goes into' }),
});

export const MergeProjectOutput = z.object({
  success: z.literal(true),
  data: z.object({
    project: Project,
    merged: z
      .object({ id: z.string(), slug: z.string() })
      .meta({ description: 'The project that was merged' }),
  }),
});
