import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { queryInt, queryObject } from '../schemas/query.ts';

export const findTagsMeta: Meta = {
  readsModel: true,
  openapi: {
    method: 'GET',
    path: '/api/tags',
    protect: false,
    tags: ['tags'],
    summary: 'List tags with their project counts',
    description:
      '`q` matches the tag’s name, nameEn, slug, pinyin and initials as in GET /api/projects (every word ' +
      'must match). Sorted by project count (most first) or by name (Chinese by pinyin); ties by id. ' +
      'Keyset pages: pass `nextCursor` back as `cursor` with the same q and sort. A merged tag is not listed: its ' +
      'slug is among the `aliases` of the tag it was merged into.',
  },
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: {
    request: { q: 'mx', sort: 'count', limit: 2 },
    response: {
      success: true,
      tags: [
        {
          id: 'c1a2b3c4d5e6f7g8h9i0j1k2',
          name: '大模型',
          nameEn: 'LLM',
          slug: 'llm',
          aliases: ['llm-2'],
          projectCount: 12,
        },
        {
          id: 'c2a2b3c4d5e6f7g8h9i0j1k2',
          name: '多模态',
          nameEn: 'Multimodal',
          slug: 'multimodal',
          aliases: [],
          projectCount: 5,
        },
      ],
      hasMore: true,
      nextCursor: 'eyJxIjoi…',
    },
  },
};

export const FindTagsInput = queryObject({
  q: optional(text({ min: 1, max: 200 })),
  sort: z.enum(['count', 'name']).default('count'),
  limit: queryInt({ min: 1, max: 100, fallback: 50 }),
  cursor: optional(text({ min: 1, max: 2000 })),
  minPosition: optional(text({ min: 1, max: 100 })).meta({
    description:
      'An X-Directory-Position value: answer only once this process reflects it (at most 5 s, then 503)',
  }),
});

export const FindTagsOutput = z.object({
  success: z.literal(true),
  tags: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      nameEn: z.string().nullable(),
      slug: z.string(),
      aliases: z.array(z.string()).meta({
        description: 'The slugs of the tags merged into this one (docs: POST /api/tags/{slug}/merge)',
      }),
      projectCount: z.number().int().min(0),
    }),
  ),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
