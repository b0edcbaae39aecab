import { deleteProjectBySlug } from '@directory/db';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { missingProject } from './aliases.ts';
import { DeleteProjectInput, DeleteProjectOutput, deleteProjectMeta } from './delete-project.types.ts';
import { projectNotFound } from './get-project.ts';

export const deleteProject = keyedProcedure
  .meta(deleteProjectMeta)
  .input(DeleteProjectInput)
  .output(DeleteProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const deleted = await inTransaction(ctx.db, (trx) => deleteProjectBySlug(trx, input.slug));
    if (!deleted) throw await missingProject(ctx.db, input.slug, 'write', projectNotFound(input.slug));
    const { linksCount, tagsCount, ...project } = deleted;
    return {
      success: true as const,
      message: `Project "${project.slug}" deleted successfully`,
      data: { project, deleted: { linksCount, tagsCount } },
    };
  });
