import { findProjectDetailBySlug } from '@directory/db';
import { etagOf } from '../domain/etag.ts';
import { AppError } from '../errors.ts';
import { type Project, toProject } from '../schemas/project.ts';
import { missingProject } from '../services/aliases.ts';
import { publicProcedure, readDbOf, readModelOf } from '../trpc.ts';
import { trustedOutput } from '../trusted-output.ts';
import { GetProjectInput, GetProjectOutput, getProjectMeta } from './get-project.types.ts';

export const projectNotFound = (slug: string) =>
  new AppError('NOT_FOUND', [`Project with slug "${slug}" not found`]);

/**
 * The ETag endpoint 2 gives this project: its answer as the output schema renders it (the REST
 * adapter tags every GET the same way), so that PATCH can compare If-Match with it.
 */
export const projectEtag = (project: Project): string =>
  etagOf(JSON.stringify(GetProjectOutput.parse({ success: true, data: project })));

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
    const project = await model.read(
      () => {
        const id = model.idOfSlug(input.slug);
        return { ids: id === undefined ? [] : [id], page: undefined };
      },
      (_, [found]) => found?.body,
    );
    if (project) return { success: true as const, data: project };
    const row = await findProjectDetailBySlug(readDbOf(ctx), input.slug);
    if (!row) throw await missingProject(readDbOf(ctx), input.slug, 'read', projectNotFound(input.slug));
    return { success: true as const, data: toProject(row) };
  });
