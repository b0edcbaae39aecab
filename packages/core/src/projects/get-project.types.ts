import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';

export const getProjectMeta: Meta = {
  readsModel: true,
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}',
    protect: false,
    tags: ['projects'],
    summary: 'Get a project by slug',
    description:
      'The project with this slug, with its tags and links (links in the order they were given). Public: no key. ' +
      'A slug that was merged into another project answers 301 `Moved Permanently` with `Location: ' +
      "/api/projects/<target slug>` and the same path in the body's `location`. " +
      'Served from the read model with a weak `ETag`; `If-None-Match` answers 304.',
  },
  errors: ['NOT_FOUND', 'MOVED'],
  examples: {
    request: { slug: ex.QWEN_SLUG },
    response: { success: true, data: ex.QWEN_PROJECT },
  },
};

export const GetProjectInput = z.object({
  slug: text(),
  minPosition: optional(text({ min: 1, max: 100 })).meta({
    description:
      'An X-Directory-Position value: answer only once this process reflects it (at most 5 s, then 503)',
  }),
});

export const GetProjectOutput = z.object({ success: z.literal(true), data: Project });
