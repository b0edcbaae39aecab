import { findProjectDetailBySlug, findProjectSlugByUrlKey } from '@directory/db';
import { urlKey } from '../domain/url-key.ts';
import { AppError } from '../errors.ts';
import { toProject } from '../schemas/project.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import {
  GetProjectByUrlInput,
  GetProjectByUrlOutput,
  getProjectByUrlMeta,
} from './get-project-by-url.types.ts';

export const getProjectByUrl = publicProcedure
  .meta(getProjectByUrlMeta)
  .input(GetProjectByUrlInput)
  .output(GetProjectByUrlOutput)
  .query(async ({ ctx, input }) => {
    const slug = await findProjectSlugByUrlKey(readDbOf(ctx), urlKey(input.url));
    const row = slug === undefined ? undefined : await findProjectDetailBySlug(readDbOf(ctx), slug);
    if (!row) throw new AppError('NOT_FOUND', [`No project has a link to "${input.url}"`]);
    return { success: true as const, data: toProject(row) };
  });
