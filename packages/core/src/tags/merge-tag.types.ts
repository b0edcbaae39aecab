import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { CuratedTag, LLM_TAG } from './tag.types.ts';

export const mergeTagMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/tags/{slug}/merge',
    protect: true,
    tags: ['tags'],
    summary: 'Merge a tag into another; its slug and names stay as an alias',
    description:
      'Every project tagged `{slug}` gets `into` in its place, keeping the order of its tags (a project that has ' +
      'both keeps one, at the first of their places), and stores one revision (via "tag-merge"). `{slug}` becomes an ' +
      'alias of `into`: `tags={slug}` filters as `into`, a write naming it (by name, or by nameEn) gets `into`, and ' +
      'GET /api/tags lists only `into`, with `{slug}` among its `aliases` (so do the aliases `{slug}` had). Merging ' +
      'into an alias merges into the tag it stands for. One transaction. 404 unknown slug or `into`; 409 when ' +
      '`into` is `{slug}` or one of its aliases, or `{slug}` was already merged into another tag (merging it again ' +
      'into the same tag answers as before, changing nothing).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: 'llm-2', into: 'llm' },
    response: { success: true, tag: LLM_TAG, merged: 'llm-2', projectsChanged: 1 },
  },
};

export const MergeTagInput = z.object({
  slug: text({ min: 1, max: 200 }),
  into: text({ min: 1, max: 200 }).meta({ description: 'The slug of the tag to keep' }),
});

export const MergeTagOutput = z.object({
  success: z.literal(true),
  tag: CuratedTag.meta({ description: 'The tag kept, with its aliases' }),
  merged: z.string().meta({ description: 'The slug merged (now an alias)' }),
  projectsChanged: count().meta({ description: 'The projects whose tags changed (one revision each)' }),
});
