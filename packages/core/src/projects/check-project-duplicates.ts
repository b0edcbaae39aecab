import { findProjectKeyMatches, type ProjectKeyMatches } from '@directory/db';
import { urlKey } from '../domain/url-key.ts';
import { keyedProcedure, readDbOf } from '../trpc.ts';
import {
  CheckProjectDuplicatesInput,
  CheckProjectDuplicatesOutput,
  checkProjectDuplicatesMeta,
} from './check-project-duplicates.types.ts';

/**
 * Match order of endpoint 10: the first field that matches decides; urls match by key
 * (docs/curation.md#same-project-other-spelling).
 */
const MATCH_ORDER = [
  ['codehostUrl', 'CODEHOST_URL'],
  ['modelhubUrl', 'MODELHUB_URL'],
  ['websiteUrl', 'WEBSITE_URL'],
  ['slug', 'SLUG'],
] as const satisfies readonly (readonly [keyof ProjectKeyMatches, string])[];

export const checkProjectDuplicates = keyedProcedure
  .meta(checkProjectDuplicatesMeta)
  .input(CheckProjectDuplicatesInput)
  .output(CheckProjectDuplicatesOutput)
  .mutation(async ({ ctx, input }) => {
    const matches = await findProjectKeyMatches(
      readDbOf(ctx),
      input.projects.map((p) => ({
        codehostUrl: p.codehostUrl === undefined ? undefined : urlKey(p.codehostUrl),
        modelhubUrl: p.modelhubUrl === undefined ? undefined : urlKey(p.modelhubUrl),
        websiteUrl: p.websiteUrl === undefined ? undefined : urlKey(p.websiteUrl),
        slug: p.slug,
      })),
    );
    const breakdown = { codehostUrl: 0, modelhubUrl: 0, websiteUrl: 0, slug: 0 };
    const results = input.projects.map((keys, i) => {
      const found = MATCH_ORDER.map(([field, matchType]) => ({
        field,
        matchType,
        project: matches[i]?.[field],
      })).find((m) => m.project);
      if (!found?.project) return { ...keys, exists: false, matchType: 'NONE' as const };
      breakdown[found.field]++;
      return {
        ...keys,
        exists: true,
        matchType: found.matchType,
        projectId: found.project.id,
        projectName: found.project.name,
        ...(found.project.matchedUrl !== null && { matchedUrl: found.project.matchedUrl }),
      };
    });
    const exists = results.filter((r) => r.exists).length;
    return {
      success: true as const,
      results,
      stats: { total: results.length, exists, new: results.length - exists, breakdown },
    };
  });
