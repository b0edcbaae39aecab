import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';

export const getProjectMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}',
    protect: false,
    tags: ['projects'],
    summary: 'Get a project by slug',
  },
  errors: ['NOT_FOUND'],
};

export const GetProjectInput = z.object({ slug: text() });

export const GetProjectOutput = z.object({ success: z.literal(true), data: Project });
