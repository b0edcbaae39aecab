import {
  findDeletedIdBySlug,
  findProjectDetailsByIds,
  findProjectIdBySlug,
  findRevision,
} from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import { projectNotFound } from '../projects/get-project.ts';
import { type Project, toProject } from '../schemas/project.ts';
import { missingProject } from '../services/aliases.ts';
import { recordRevisions } from '../services/revisions.ts';
import { claimIdentity, writeBody } from '../services/write-body.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { revisionNotFound } from './get-revision.ts';
import { RevertProjectInput, RevertProjectOutput, revertProjectMeta } from './revert-project.types.ts';

export const revertProject = keyedProcedure
  .meta(revertProjectMeta)
  .input(RevertProjectInput)
  .output(RevertProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    return inTransaction(ctx, async (trx) => {
      const id = await findProjectIdBySlug(trx, input.slug);
      if (id === undefined) {
        const missing = await missingProject(trx, input.slug, 'write', projectNotFound(input.slug));
        const deleted = missing.kind === 'NOT_FOUND' ? await findDeletedIdBySlug(trx, input.slug) : undefined;
        if (deleted !== undefined)
          throw new AppError('NOT_FOUND', [
            `Project with slug "${input.slug}" not found: it was deleted; restore it with POST /api/projects/deleted/${deleted}/restore`,
          ]);
        throw missing;
      }
      const revision = await findRevision(trx, id, input.revision);
      if (!revision) throw revisionNotFound(input.slug, input.revision);
      const body = revision.project as Project;
      // identity locks first (as an upsert takes them), then the row
      const claimed = await claimIdentity(trx, { ...body, id, slug: input.slug }, input.links);
      const [current] = await findProjectDetailsByIds(trx, [id], true);
      if (!current) throw projectNotFound(input.slug);
      await writeBody(trx, { ...claimed.body, id, slug: current.slug }, false);
      const numbers = await recordRevisions(trx, [{ projectId: id, action: 'updated' }], {
        via: 'revert',
        actor,
      });
      const [after] = await findProjectDetailsByIds(trx, [id]);
      return {
        success: true as const,
        data: toProject(after!),
        revision: numbers.get(id) ?? null,
        skipped: claimed.taken.map(({ url, slug }) => ({ url, slug })),
      };
    });
  });
