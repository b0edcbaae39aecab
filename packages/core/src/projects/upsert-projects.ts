import { isDatabaseUnavailable } from '@directory/db';
import { AppError } from '../errors.ts';
import { repeatedLinkUrlDetail } from '../schemas/project.ts';
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
      const repeated = repeatedLinkUrlDetail(project);
      if (repeated) {
        counts.failed++;
        errors.push({ index, name: project.name, error: repeated });
        continue;
      }
      try {
        const { action } = await inTransaction(ctx.db, (trx) => upsertProject(trx, project));
        counts[action]++;
      } catch (err) {
        // One item's failure is that item's alone (DECISIONS); an unreachable database is not
        // any item's fault and fails the request.
        if (err instanceof AppError || isDatabaseUnavailable(err)) throw err;
        counts.failed++;
        errors.push({
          index,
          name: project.name,
          error: `Internal error while saving this item (reference ${ctx.reportError(err)})`,
        });
      }
    }
    return { success: true as const, ...counts, errors };
  });
