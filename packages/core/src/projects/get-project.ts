import { findProjectDetailBySlug } from '@directory/db';
import { AppError } from '../errors.ts';
import { iso } from '../schemas/common.ts';
import { publicProcedure } from '../trpc.ts';
import { GetProjectInput, GetProjectOutput, getProjectMeta } from './get-project.types.ts';

export const projectNotFound = (slug: string) =>
  new AppError('NOT_FOUND', [`Project with slug "${slug}" not found`]);

export const getProject = publicProcedure
  .meta(getProjectMeta)
  .input(GetProjectInput)
  .output(GetProjectOutput)
  .query(async ({ ctx, input }) => {
    const row = await findProjectDetailBySlug(ctx.db, input.slug);
    if (!row) throw projectNotFound(input.slug);
    return {
      success: true as const,
      data: {
        id: row.id,
        name: row.name,
        nameEn: row.name_en,
        slug: row.slug,
        description: row.description,
        descriptionEn: row.description_en,
        content: row.content,
        contentEn: row.content_en,
        status: row.status,
        source: row.source,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
        tags: row.tags,
        links: row.links,
      },
    };
  });
