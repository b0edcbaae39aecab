import { findLatestRevision, findMergeTarget, findProjectDetailsByIds, findSlugHolder } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import { type Project, toProject } from '../schemas/project.ts';
import { recordRevisions } from '../services/revisions.ts';
import { claimIdentity, writeBody } from '../services/write-body.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { RestoreProjectInput, RestoreProjectOutput, restoreProjectMeta } from './restore-project.types.ts';

const notDeleted = (id: string) => new AppError('NOT_FOUND', [`No deleted project with id "${id}"`]);

export const restoreProject = keyedProcedure
  .meta(restoreProjectMeta)
  .input(RestoreProjectInput)
  .output(RestoreProjectOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    // Two restores of one project: both insert its id; the second waits on the primary key,
    // fails with a unique violation, is retried whole and then finds the project live (409).
    return inTransaction(ctx, async (trx) => {
      const latest = await findLatestRevision(trx, input.id);
      if (!latest) throw notDeleted(input.id);
      if (latest.action !== 'deleted' || (await findProjectDetailsByIds(trx, [input.id])).length > 0)
        throw new AppError('CONFLICT', [`Project "${latest.slug}" (${input.id}) is not deleted`]);
      if (latest.via === 'merge') {
        const target = await findMergeTarget(trx, input.id);
        throw new AppError(
          'CONFLICT',
          [
            target === undefined
              ? `Project "${latest.slug}" was merged into a project that was deleted since`
              : `Project "${latest.slug}" was merged into "${target}"`,
          ],
          target === undefined ? {} : { location: `/api/projects/${encodeURIComponent(target)}` },
        );
      }
      const claimed = await claimIdentity(trx, latest.project as Project, input.links);
      const body = claimed.body;
      const holder = await findSlugHolder(trx, body.slug);
      if (holder?.kind === 'project')
        throw new AppError('CONFLICT', [`slug: "${body.slug}" is taken by another project`]);
      if (holder?.kind === 'alias')
        throw new AppError('CONFLICT', [
          `slug: "${body.slug}" is now an alias of "${holder.target}" (merged into it)`,
        ]);
      await writeBody(trx, body, true);
      const numbers = await recordRevisions(trx, [{ projectId: input.id, action: 'created' }], {
        via: 'restore',
        actor,
      });
      const [after] = await findProjectDetailsByIds(trx, [input.id]);
      return {
        success: true as const,
        data: toProject(after!),
        revision: numbers.get(input.id)!,
        skipped: claimed.taken.map(({ url, slug }) => ({ url, slug })),
      };
    });
  });
