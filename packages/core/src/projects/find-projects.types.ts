import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text, timestamp } from '../schemas/common.ts';
import { LinkType, ProjectStatus, Signals, Tag } from '../schemas/project.ts';
import { commaList, queryBoolean, queryInt, queryObject, repeatable } from '../schemas/query.ts';

export const findProjectsMeta: Meta = {
  readsModel: true,
  openapi: {
    method: 'GET',
    path: '/api/projects',
    protect: false,
    tags: ['projects'],
    summary: 'Browse and search projects: filters, facets, keyset pages',
    description:
      '`q` matches Chinese substrings of any length, English words and word prefixes, the name’s full ' +
      'pinyin (prefix or substring) and initials, and the slug, in names, tags and descriptions; every ' +
      'word must match. Words of 5–8 Latin letters also match one typo away, of 9 or more two (`typos=false` ' +
      'turns it off); a word that is a synonym (GET /api/search/synonyms) also matches the other terms of ' +
      'its set, ranked just below the word itself. Ranked: every match without typos above every match ' +
      'with; then an exact match of name/nameEn/slug/pinyin/initials, a prefix of one, a match inside the ' +
      'name, a tag, the description. `total` and facet counts are exact. Pages are keyset cursors ' +
      '(`nextCursor`, also a `Link: rel="next"` header) that never skip or repeat; ties by id. A facet ' +
      'counts the matches of every filter but its own. Unknown parameters are a 400. Served from the ' +
      'process’s in-memory read model: `X-Directory-Position` tells what it reflects, and `minPosition` ' +
      '(a position a write answered with) waits for it, at most 5 s, then 503 with `Retry-After`.',
  },
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: {
    request: { q: '模型', tag: ['llm'], facets: ['tags', 'status'], limit: 2 },
    response: {
      success: true,
      projects: [
        {
          id: 'k3b9x2m1q8w7e6r5t4y3u2i1',
          name: '通义千问',
          nameEn: 'Qwen',
          slug: 'qwen',
          description: '阿里云推出的超大规模语言模型系列，支持中英文对话与代码生成。',
          descriptionEn: 'Alibaba Cloud large language model family.',
          status: 'ACTIVE',
          source: 'github',
          createdAt: '2026-11-20T08:00:00.000Z',
          updatedAt: '2026-11-21T09:30:00.000Z',
          tags: [{ id: 'c1a2b3c4d5e6f7g8h9i0j1k2', name: '大模型', nameEn: 'LLM', slug: 'llm' }],
          links: [
            {
              id: 'l1a2b3c4d5e6f7g8h9i0j1k2',
              type: 'CODEHOST',
              url: 'https://github.com/QwenLM/Qwen',
              title: null,
            },
          ],
          signals: { stars: 98_000, downloads: null },
          match: { field: 'description', score: 20, typos: 0 },
        },
      ],
      total: 1,
      totalExact: true,
      hasMore: false,
      nextCursor: null,
      facets: {
        tags: [{ slug: 'llm', name: '大模型', nameEn: 'LLM', count: 1 }],
        status: [{ value: 'ACTIVE', count: 1 }],
      },
    },
  },
};

export const SORTS = ['relevance', 'updated', 'created', 'name', 'standing'] as const;
export const FACETS = ['tags', 'status', 'linkTypes'] as const;

/**
 * The list's filters that GET /api/export takes too (docs/api.md#export-get-apiexport), validated by
 * the same schemas: one rule for both.
 */
export const StatusFilter = z.enum(['ACTIVE', 'ARCHIVED', 'ALL']).default('ALL');
export const TagFilter = repeatable(text({ min: 1, max: 200 }));
export const UpdatedAfterFilter = optional(
  z.iso.datetime({ offset: true, error: 'Invalid input: expected an ISO 8601 timestamp' }),
);

export const FindProjectsInput = queryObject({
  q: optional(text({ min: 1, max: 200 })),
  status: StatusFilter,
  tag: TagFilter,
  tagMode: z.enum(['all', 'any']).default('all'),
  linkType: repeatable(LinkType),
  source: optional(text({ min: 1, max: 500 })),
  updatedAfter: UpdatedAfterFilter,
  sort: z.enum(SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
  cursor: optional(text({ min: 1, max: 2000 })),
  facets: commaList(FACETS),
  include: z.enum(['content']).optional(),
  typos: queryBoolean().optional().meta({ description: 'Typo tolerance; default true' }),
  matchingStrategy: z
    .enum(['last', 'frequency', 'all'])
    .optional()
    .meta({
      description:
        'When no project matches every word: `last` (default) leaves out the words matching nothing, then the ' +
        'last words; `frequency` the words matching the most projects first; `all` nothing (docs/search.md)',
    }),
  explain: queryBoolean()
    .optional()
    .meta({ description: 'Each item’s match tells each ranking rule’s value' }),
  minPosition: optional(text({ min: 1, max: 100 })).meta({
    description:
      'An X-Directory-Position value: answer only once this process reflects it (at most 5 s, then 503)',
  }),
});

const MATCH_FIELDS = [
  'name',
  'nameEn',
  'slug',
  'pinyin',
  'initials',
  'tags',
  'description',
  'descriptionEn',
] as const;

export const ProjectListItem = z.object({
  id: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  slug: z.string(),
  description: z.string(),
  descriptionEn: z.string().nullable(),
  content: z.string().nullable().optional(),
  contentEn: z.string().nullable().optional(),
  status: ProjectStatus,
  source: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  tags: z.array(Tag),
  links: z.array(z.object({ id: z.string(), type: LinkType, url: z.string(), title: z.string().nullable() })),
  signals: Signals,
  match: z
    .object({
      field: z.enum(MATCH_FIELDS),
      score: z.number().int().min(0),
      typos: z.number().int().min(0).max(2).meta({ description: 'Edits between the query and the match' }),
      rules: z
        .object({
          words: z.number().int().min(0),
          typo: z.number().int().min(0).max(2),
          proximity: z.number().min(0),
          attribute: z.number().min(0),
          exactness: z.number().int().min(0),
          coverage: z.number().min(0).max(1),
          standing: z.number().int().min(0),
        })
        .optional()
        .meta({
          description: 'With explain=1: the value each ranking rule ordered this item by, in their order',
        }),
    })
    .optional(),
});
export type ProjectListItem = z.infer<typeof ProjectListItem>;

const ValueCount = z.object({ value: z.string(), count: z.number().int().min(0) });

export const FindProjectsOutput = z.object({
  success: z.literal(true),
  projects: z.array(ProjectListItem),
  total: z.number().int().min(0),
  dropped: z
    .array(z.string())
    .optional()
    .meta({ description: 'The query’s words the matching strategy left out, when it left out any' }),
  totalExact: z.boolean(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
  facets: z
    .object({
      tags: z
        .array(
          z.object({
            slug: z.string(),
            name: z.string(),
            nameEn: z.string().nullable(),
            count: z.number().int().min(0),
          }),
        )
        .optional(),
      status: z.array(ValueCount).optional(),
      linkTypes: z.array(ValueCount).optional(),
    })
    .optional(),
});
export type FindProjectsOutput = z.infer<typeof FindProjectsOutput>;
