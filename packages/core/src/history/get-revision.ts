import { type Database, findRevision, type Kysely, type RevisionRow } from '@directory/db';
import { AppError } from '../errors.ts';
import { historyProjectId } from '../services/history-project.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { GetRevisionInput, GetRevisionOutput, getRevisionMeta } from './get-revision.types.ts';
import { toRevisionSummary } from './revision.types.ts';

export const revisionNotFound = (slug: string, revision: number) =>
  new AppError('NOT_FOUND', [`Revision ${revision} of project "${slug}" not found`]);

/** A revision of the project a slug names (history-project.ts), or 404. */
export async function revisionOf(db: Kysely<Database>, slug: string, revision: number): Promise<RevisionRow> {
  const row = await findRevision(db, await historyProjectId(db, slug), revision);
  if (!row) throw revisionNotFound(slug, revision);
  return row;
}

export const getRevision = publicProcedure
  .meta(getRevisionMeta)
  .input(GetRevisionInput)
  .output(GetRevisionOutput)
  .query(async ({ ctx, input }) => {
    const row = await revisionOf(readDbOf(ctx), input.slug, input.revision);
    return { success: true as const, data: { ...toRevisionSummary(row), project: row.project as never } };
  });
