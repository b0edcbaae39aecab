import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, optional, text } from '../schemas/common.ts';

export const checkProjectDuplicatesMeta: Meta = {
  scope: 'projects:write',
  openapi: {
    method: 'POST',
    path: '/api/webhook/check-duplicates',
    protect: true,
    tags: ['projects'],
    summary: 'Check whether projects already exist (CODEHOST url, MODELHUB url, WEBSITE url, then slug)',
    description:
      'For each item (1–100, each with at least one of codehostUrl, modelhubUrl, websiteUrl, slug), looks for a stored ' +
      'project: a link of that type with the same url key, in the order CODEHOST, MODELHUB, WEBSITE, then the slug. ' +
      'Each result repeats the fields that were sent, and on a url match gives `matchedUrl`, the stored spelling that ' +
      'matched; `stats.breakdown` counts the results by the field that matched. The url key: see the README, "Same ' +
      'project, other spelling".',
  },
  examples: {
    request: {
      projects: [
        { codehostUrl: 'http://www.github.com/qwenlm/qwen.git' },
        { slug: ex.DEEPSEEK_V3_SLUG, websiteUrl: 'https://www.deepseek.com/' },
        {
          codehostUrl: 'https://github.com/THUDM/ChatGLM-6B',
          modelhubUrl: 'https://huggingface.co/THUDM/chatglm-6b',
        },
      ],
    },
    response: {
      success: true,
      results: [
        {
          codehostUrl: 'http://www.github.com/qwenlm/qwen.git',
          exists: true,
          matchType: 'CODEHOST_URL',
          projectId: ex.QWEN_ID,
          projectName: ex.QWEN_INPUT.name,
          matchedUrl: 'https://github.com/QwenLM/Qwen',
        },
        {
          websiteUrl: 'https://www.deepseek.com/',
          slug: ex.DEEPSEEK_V3_SLUG,
          exists: true,
          matchType: 'WEBSITE_URL',
          projectId: ex.DEEPSEEK_V3_ID,
          projectName: ex.DEEPSEEK_V3_INPUT.name,
          matchedUrl: 'https://www.deepseek.com/',
        },
        {
          codehostUrl: 'https://github.com/THUDM/ChatGLM-6B',
          modelhubUrl: 'https://huggingface.co/THUDM/chatglm-6b',
          exists: false,
          matchType: 'NONE',
        },
      ],
      stats: {
        total: 3,
        exists: 2,
        new: 1,
        breakdown: { codehostUrl: 1, modelhubUrl: 0, websiteUrl: 1, slug: 0 },
      },
    },
  },
};

const MATCH_TYPES = ['CODEHOST_URL', 'MODELHUB_URL', 'WEBSITE_URL', 'SLUG', 'NONE'] as const;

const KEY_FIELDS = ['codehostUrl', 'modelhubUrl', 'websiteUrl', 'slug'] as const;

const ProjectKeys = z
  .object({
    codehostUrl: optional(text({ min: 1 })),
    modelhubUrl: optional(text({ min: 1 })),
    websiteUrl: optional(text({ min: 1 })),
    slug: optional(text({ min: 1 })),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    message: 'Expected at least one of codehostUrl, modelhubUrl, websiteUrl, slug',
  })
  // The refinement above, as the document states it: at least one field present and not null.
  // Each branch leaves the other fields to the object (unevaluatedProperties: true): example
  // checkers that close every schema by default (openapi-typescript's) read them as open.
  .meta({
    anyOf: KEY_FIELDS.map((field) => ({
      required: [field],
      properties: { [field]: { type: 'string' } },
      unevaluatedProperties: true,
    })),
  });

export const CheckProjectDuplicatesInput = z.object({
  projects: z.array(ProjectKeys).min(1).max(100),
});

export const CheckProjectDuplicatesOutput = z.object({
  success: z.literal(true),
  results: z.array(
    z.object({
      codehostUrl: z.string().optional(),
      modelhubUrl: z.string().optional(),
      websiteUrl: z.string().optional(),
      slug: z.string().optional(),
      exists: z.boolean(),
      matchType: z.enum(MATCH_TYPES),
      projectId: z.string().optional(),
      projectName: z.string().optional(),
      matchedUrl: z.string().optional().meta({
        description: 'On a url match: the stored link url that matched (urls match by key, however spelled).',
      }),
    }),
  ),
  stats: z.object({
    total: count(),
    exists: count(),
    new: count(),
    breakdown: z.object({
      codehostUrl: count(),
      modelhubUrl: count(),
      websiteUrl: count(),
      slug: count(),
    }),
  }),
});
