import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';

export const deleteProjectMeta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/api/projects/{slug}',
    protect: true,
    tags: ['projects'],
    summary: 'Delete a project with its links and tag associations (tags remain)',
  },
  errors: ['NOT_FOUND'],
};

export const DeleteProjectInput = z.object({ slug: text() });

export const DeleteProjectOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    project: z.object({ id: z.string(), name: z.string(), nameEn: z.string().nullable(), slug: text() }),
    deleted: z.object({ linksCount: z.number().int(), tagsCount: z.number().int() }),
  }),
});
