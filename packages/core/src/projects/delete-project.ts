import { deleteProjectBySlug, findProjectDetailsByIds, findProjectIdBySlug } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { missingProject } from '../services/aliases.ts';
import { recordDeletions } from '../services/revisions.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { DeleteProjectInput, DeleteProjectOutput, deleteProjectMeta } from './delete-project.types.ts';
import { projectNotFound } from './get-project.ts';

export const deleteProject = keyedProcedure
  .meta(deleteProjectMeta)
  .input(DeleteProjectInput)
  .output(DeleteProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    // The project is locked and read as it is, deleted, and its last revision (via "delete", the
    // body before the delete) stored, in one transaction
    // (docs/curation.md#history-revert-locks-and-restore).
    const deleted = await inTransaction(ctx, async (trx) => {
      const id = await findProjectIdBySlug(trx, input.slug);
      const [before] = id === undefined ? [] : await findProjectDetailsByIds(trx, [id], true);
      if (!before) return undefined;
      const done = await deleteProjectBySlug(trx, before.slug);
      if (done) await recordDeletions(trx, [before], { via: 'delete', actor });
      return done;
    });
    if (!deleted) throw await missingProject(ctx.db, input.slug, 'write', projectNotFound(input.slug));
    const { linksCount, tagsCount, ...project } = deleted;
    return {
      success: true as const,
      message: `Project "${project.slug}" deleted successfully`,
      data: { project, deleted: { linksCount, tagsCount } },
    };
  });
