import { z } from 'zod';
import type { Meta } from '../meta.ts';

export const deleteProjectMeta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/api/projects/{slug}',
    protect: true,
    tags: ['projects'],
    summary: 'Delete a project with its links and tag associations (tags remain)',
  },
};

export const DeleteProjectInput = z.object({ slug: z.string() });

export const DeleteProjectOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    project: z.object({ id: z.string(), name: z.string(), nameEn: z.string().nullable(), slug: z.string() }),
    deleted: z.object({ linksCount: z.number().int(), tagsCount: z.number().int() }),
  }),
});
