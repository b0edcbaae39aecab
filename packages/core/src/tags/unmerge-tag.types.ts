import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { CuratedTag, LLM_TAG } from './tag.types.ts';

export const unmergeTagMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/tags/{slug}/unmerge',
    protect: true,
    tags: ['tags'],
    summary: 'Undo the merge of a tag: the alias is its own tag again',
    description:
      '`{slug}` is a tag merged into another (an alias). It becomes a tag of its own again, with its names and the ' +
      'aliases it had before the merge, and every project the merge moved gets its tags back as before the merge, ' +
      'one revision each (via "tag-unmerge") — unless the project changed since the merge (any revision after the ' +
      "merge's; see docs/decisions.md): such projects keep their tags and are listed in `skipped`. One transaction. " +
      '404 unknown slug; 409 when `{slug}` is not merged (undoing twice), its merge was not recorded (made before ' +
      'this version), or its names were taken since (rename the tag that took them first).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: 'llm-2' },
    response: {
      success: true,
      tag: { id: 'd2b3c4d5e6f7g8h9i0j1k2l3', name: '大模型二', nameEn: 'LLM 2', slug: 'llm-2', aliases: [] },
      from: { ...LLM_TAG, aliases: [] },
      projectsChanged: 1,
      skipped: [],
    },
  },
};

export const UnmergeTagInput = z.object({
  slug: text({ min: 1, max: 200 }),
});

export const SkippedProject = z.object({
  slug: z.string().meta({ description: "The project's slug (its id if it was deleted since)" }),
  reason: z.string().meta({ description: 'Why its tags were left as they are' }),
});

export const UnmergeTagOutput = z.object({
  success: z.literal(true),
  tag: CuratedTag.meta({ description: 'The tag restored, with the aliases it had' }),
  from: CuratedTag.meta({ description: 'The tag it had been merged into, as it is now' }),
  projectsChanged: count().meta({ description: 'The projects given their tags back (one revision each)' }),
  skipped: z
    .array(SkippedProject)
    .meta({ description: 'The projects the merge moved that changed since, left as they are' }),
});
