import { diffProjects } from '../domain/revision-diff.ts';
import type { Project } from '../schemas/project.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { DiffRevisionsInput, DiffRevisionsOutput, diffRevisionsMeta } from './diff-revisions.types.ts';
import { revisionOf } from './get-revision.ts';

export const diffRevisions = publicProcedure
  .meta(diffRevisionsMeta)
  .input(DiffRevisionsInput)
  .output(DiffRevisionsOutput)
  .query(async ({ ctx, input }) => {
    const to = await revisionOf(readDbOf(ctx), input.slug, input.revision);
    const against = input.against ?? (input.revision > 1 ? input.revision - 1 : null);
    const from = against === null ? undefined : await revisionOf(readDbOf(ctx), input.slug, against);
    const diff = diffProjects(from?.project as Project | undefined, to.project as Project);
    return { success: true as const, revision: input.revision, against, ...diff };
  });
