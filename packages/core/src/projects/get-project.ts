import { findProjectDetailBySlug } from '@directory/db';
import { AppError } from '../errors.ts';
import { toProject } from '../schemas/project.ts';
import { publicProcedure } from '../trpc.ts';
import { missingProject } from './aliases.ts';
import { GetProjectInput, GetProjectOutput, getProjectMeta } from './get-project.types.ts';

export const projectNotFound = (slug: string) =>
  new AppError('NOT_FOUND', [`Project with slug "${slug}" not found`]);

export const getProject = publicProcedure
  .meta(getProjectMeta)
  .input(GetProjectInput)
  .output(GetProjectOutput)
  .query(async ({ ctx, input }) => {
    const row = await findProjectDetailBySlug(ctx.db, input.slug);
    if (!row) throw await missingProject(ctx.db, input.slug, 'read', projectNotFound(input.slug));
    return { success: true as const, data: toProject(row) };
  });
