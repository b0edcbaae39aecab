import { repeatedLinkUrl } from '../schemas/project.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { upsertProject } from './upsert-project.ts';
import { UpsertProjectsInput, UpsertProjectsOutput, upsertProjectsMeta } from './upsert-projects.types.ts';

export const upsertProjects = keyedProcedure
  .meta(upsertProjectsMeta)
  .input(UpsertProjectsInput)
  .output(UpsertProjectsOutput)
  .mutation(async ({ ctx, input }) => {
    const counts = { processed: 0, created: 0, updated: 0, failed: 0 };
    const errors: { index: number; name: string; error: string }[] = [];
    for (const [index, project] of input.projects.entries()) {
      counts.processed++;
      const repeated = repeatedLinkUrl(project);
      if (repeated) {
        counts.failed++;
        errors.push({
          index,
          name: project.name,
          error: `links.${repeated.index}.url: The url "${repeated.url}" is listed twice`,
        });
        continue;
      }
      const { action } = await inTransaction(ctx.db, (trx) => upsertProject(trx, project));
      counts[action]++;
    }
    return { success: true as const, ...counts, errors };
  });
