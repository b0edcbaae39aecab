import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';

export const getProjectByUrlMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/by-url',
    protect: false,
    tags: ['projects'],
    summary: 'Get the project that owns a url, however it is spelled',
    description:
      'The project (as `GET /api/projects/{slug}` shows it) with a link of any type whose url key is the key of ' +
      '`url`: `http://www.github.com/qwenlm/qwen.git` finds the project linking `https://github.com/QwenLM/Qwen`. ' +
      'Among projects sharing the key, the oldest. 404 when none has it. Public: no key.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { url: 'http://www.github.com/qwenlm/qwen.git' },
    response: { success: true, data: ex.QWEN_PROJECT },
  },
};

export const GetProjectByUrlInput = z.object({ url: text({ min: 1 }) });

export const GetProjectByUrlOutput = z.object({ success: z.literal(true), data: Project });
