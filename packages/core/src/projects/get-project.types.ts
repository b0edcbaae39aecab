import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { Project } from '../schemas/project.ts';

export const getProjectMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}',
    tags: ['projects'],
    summary: 'Get a project by slug',
  },
};

export const GetProjectInput = z.object({ slug: z.string() });

export const GetProjectOutput = z.object({ success: z.literal(true), data: Project });
