import { deleteDismissals } from '@directory/db';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { projectsOfSlugs } from './dismiss-duplicates.ts';
import {
  UndismissDuplicatesInput,
  UndismissDuplicatesOutput,
  undismissDuplicatesMeta,
} from './undismiss-duplicates.types.ts';

/**
 * DELETE /api/projects/duplicates/dismiss (docs/curation.md#duplicates-to-decide-on): the same body as the
 * dismissal it undoes.
 */
export const undismissDuplicates = keyedProcedure
  .meta(undismissDuplicatesMeta)
  .input(UndismissDuplicatesInput)
  .output(UndismissDuplicatesOutput)
  .mutation(async ({ ctx, input }) => {
    const projects = await projectsOfSlugs(ctx.db, input.slugs);
    const pairs = await inTransaction(ctx, (trx) =>
      deleteDismissals(
        trx,
        projects.map((p) => p.id),
      ),
    );
    if (ctx.writes) ctx.writes.beyondProjects = true;
    return { success: true as const, projects, pairs };
  });
