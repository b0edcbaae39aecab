import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { CuratedTag, LLM_TAG } from './tag.types.ts';

export const renameTagMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'PATCH',
    path: '/api/tags/{slug}',
    protect: true,
    tags: ['tags'],
    summary: "Rename a tag (either language's name, or both)",
    description:
      'Sets the name and/or nameEn of the tag; its slug stays. Every project with the tag shows the new names, ' +
      'search and facets included; no project revision is stored (the tag changed, not the project); the feed ' +
      'records a `tag.updated`. 404 unknown slug; 409 when another tag (or a merged one) already has that name as ' +
      'its name or nameEn (merge the two instead), or when the slug is a merged tag.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: 'llm', nameEn: 'Large language models' },
    response: { success: true, tag: { ...LLM_TAG, nameEn: 'Large language models' } },
  },
};

export const RenameTagInput = z
  .object({
    slug: text({ min: 1, max: 200 }),
    name: optional(text({ min: 1, max: 200 })).meta({ description: 'The new (Chinese) name' }),
    nameEn: optional(text({ min: 1, max: 200 })).meta({ description: 'The new English name' }),
  })
  .refine((input) => input.name !== undefined || input.nameEn !== undefined, {
    message: 'Give name, nameEn or both',
  });

export const RenameTagOutput = z.object({ success: z.literal(true), tag: CuratedTag });
