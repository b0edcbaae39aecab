import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { queryInt, queryObject } from '../schemas/query.ts';
import { ProjectListItem } from './find-projects.types.ts';

const { content: _content, contentEn: _contentEn, ...QWEN_LIST_ITEM } = ex.QWEN_PROJECT;

export const findRelatedProjectsMeta: Meta = {
  readsModel: true,
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}/related',
    protect: false,
    tags: ['projects'],
    summary: 'Projects related to a project, and why',
    description:
      'The projects most like this one, most alike first (ties by id), never itself or a deleted project: by the ' +
      'tags they share, the rare words of their names and descriptions they share (in either language; a word is ' +
      'rare when few projects hold it), and a shared owner of their links (the same GitHub or Hugging Face ' +
      'organisation). Each item is a list item of GET /api/projects with `related`: its `score` (the sum of what ' +
      'it shares, each weighted by its rarity) and what it shares. Public: no key. A merged slug answers 301 to ' +
      'the same path and query under its target; an unknown one 404. Served from the read model, as search is: ' +
      '`X-Directory-Position` and `minPosition` work the same way.',
  },
  errors: ['NOT_FOUND', 'MOVED'],
  examples: {
    request: { slug: ex.DEEPSEEK_V3_SLUG, limit: 1 },
    response: {
      success: true,
      projects: [
        {
          ...QWEN_LIST_ITEM,
          related: {
            score: 9.909,
            tags: ['llm', 'open-source', 'chinese'],
            words: ['大语', 'parameters'],
            owner: null,
          },
        },
      ],
    },
  },
};

export const FindRelatedProjectsInput = queryObject({
  slug: text(),
  limit: queryInt({ min: 1, max: 20, fallback: 6 }),
  minPosition: optional(text({ min: 1, max: 100 })).meta({
    description:
      'An X-Directory-Position value: answer only once this process reflects it (at most 5 s, then 503)',
  }),
});

export const Related = z.object({
  score: z
    .number()
    .min(0)
    .meta({ description: 'The weight of what the two projects share; higher is more alike' }),
  tags: z.array(z.string()).meta({ description: "The slugs of the tags shared, in the project's order" }),
  words: z
    .array(z.string())
    .meta({ description: 'The rare words shared (a Chinese word as a pair of characters), rarest first' }),
  owner: z
    .string()
    .nullable()
    .meta({ description: 'The GitHub or Hugging Face owner both link to (`github.com/<org>`), or null' }),
});

export const RelatedProjectItem = ProjectListItem.omit({ match: true }).extend({ related: Related });
export type RelatedProjectItem = z.infer<typeof RelatedProjectItem>;

export const FindRelatedProjectsOutput = z.object({
  success: z.literal(true),
  projects: z.array(RelatedProjectItem),
});
