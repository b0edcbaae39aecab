import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';

export const checkProjectDuplicatesMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/api/webhook/check-duplicates',
    protect: true,
    tags: ['projects'],
    summary: 'Check whether projects already exist (CODEHOST url, MODELHUB url, WEBSITE url, then slug)',
  },
};

const MATCH_TYPES = ['CODEHOST_URL', 'MODELHUB_URL', 'WEBSITE_URL', 'SLUG', 'NONE'] as const;

const ProjectKeys = z
  .object({
    codehostUrl: optional(text({ min: 1 })),
    modelhubUrl: optional(text({ min: 1 })),
    websiteUrl: optional(text({ min: 1 })),
    slug: optional(text({ min: 1 })),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    message: 'Expected at least one of codehostUrl, modelhubUrl, websiteUrl, slug',
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
    }),
  ),
  stats: z.object({
    total: z.number().int(),
    exists: z.number().int(),
    new: z.number().int(),
    breakdown: z.object({
      codehostUrl: z.number().int(),
      modelhubUrl: z.number().int(),
      websiteUrl: z.number().int(),
      slug: z.number().int(),
    }),
  }),
});
