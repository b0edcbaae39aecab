import { type Database, findProjectIdsBySlugs, insertDismissals, type Kysely } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { missingProject } from '../services/aliases.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  DismissDuplicatesInput,
  DismissDuplicatesOutput,
  dismissDuplicatesMeta,
} from './dismiss-duplicates.types.ts';
import { projectNotFound } from './get-project.ts';

/** The projects of these slugs, in their order; 404 (or 409 for a merged slug) for the first missing. */
export async function projectsOfSlugs(
  db: Kysely<Database>,
  slugs: readonly string[],
): Promise<{ id: string; slug: string }[]> {
  const ids = await findProjectIdsBySlugs(db, slugs);
  const missing = slugs.find((slug) => !ids.has(slug));
  if (missing !== undefined) throw await missingProject(db, missing, 'write', projectNotFound(missing));
  return slugs.map((slug) => ({ id: ids.get(slug)!, slug }));
}

/**
 * POST /api/projects/duplicates/dismiss (docs/curation.md#duplicates-to-decide-on): one statement, every
 * pair at once.
 */
export const dismissDuplicates = keyedProcedure
  .meta(dismissDuplicatesMeta)
  .input(DismissDuplicatesInput)
  .output(DismissDuplicatesOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const projects = await projectsOfSlugs(ctx.db, input.slugs);
    const pairs = await inTransaction(ctx, (trx) =>
      insertDismissals(
        trx,
        projects.map((p) => p.id),
        actor,
      ),
    );
    if (ctx.writes) ctx.writes.beyondProjects = true;
    return { success: true as const, projects, pairs };
  });
