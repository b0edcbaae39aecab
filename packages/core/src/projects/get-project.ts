import { findProjectDetailBySlug } from '@directory/db';
import { AppError } from '../errors.ts';
import { toProject } from '../schemas/project.ts';
import { missingProject } from '../services/aliases.ts';
import { publicProcedure, readModelOf } from '../trpc.ts';
import { trustedOutput } from '../trusted-output.ts';
import { GetProjectInput, GetProjectOutput, getProjectMeta } from './get-project.types.ts';

export const projectNotFound = (slug: string) =>
  new AppError('NOT_FOUND', [`Project with slug "${slug}" not found`]);

/**
 * Endpoint 2 from the read model (its detail cache; a miss is read by id). A slug the model
 * does not know is looked up in the database: an alias (301), or a 404.
 */
export const getProject = publicProcedure
  .meta(getProjectMeta)
  .input(GetProjectInput)
  .output(trustedOutput(GetProjectOutput))
  .query(async ({ ctx, input }) => {
    const model = await readModelOf(ctx, input.minPosition);
    const id = model.idOfSlug(input.slug);
    const [project] = id === undefined ? [] : await model.projects([id]);
    if (project) return { success: true as const, data: project };
    const row = await findProjectDetailBySlug(ctx.db, input.slug);
    if (!row) throw await missingProject(ctx.db, input.slug, 'read', projectNotFound(input.slug));
    return { success: true as const, data: toProject(row) };
  });
