import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';

export const deleteProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'DELETE',
    path: '/api/projects/{slug}',
    protect: true,
    tags: ['projects'],
    summary: 'Delete a project with its links and tag associations (tags remain)',
    description:
      'Deletes the project with this slug, its links and its tag associations; the tags themselves remain. ' +
      'Tasks that pointed at the project keep their status and get `projectId` null. The key may be sent in the ' +
      '`x-api-key` header or in a JSON body `{"apiKey": …}`. A slug that was merged into another project (an alias) is ' +
      '409 naming the project it went into.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: ex.QWEN_SLUG },
    response: {
      success: true,
      message: `Project "${ex.QWEN_SLUG}" deleted successfully`,
      data: {
        project: {
          id: ex.QWEN_ID,
          name: ex.QWEN_INPUT.name,
          nameEn: ex.QWEN_INPUT.nameEn,
          slug: ex.QWEN_SLUG,
        },
        deleted: { linksCount: 4, tagsCount: 4 },
      },
    },
  },
};

export const DeleteProjectInput = z.object({ slug: text() });

export const DeleteProjectOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    project: z.object({ id: z.string(), name: z.string(), nameEn: z.string().nullable(), slug: text() }),
    deleted: z.object({ linksCount: count(), tagsCount: count() }),
  }),
});
