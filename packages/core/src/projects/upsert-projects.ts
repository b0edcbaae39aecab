import { isDatabaseUnavailable } from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import { AppError } from '../errors.ts';
import type { ProjectInput } from '../schemas/project.ts';
import { repeatedLinkUrlDetail } from '../schemas/project.ts';
import { type UpsertResult, upsertInOrder, upsertProject } from '../services/upsert.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { UpsertProjectsInput, UpsertProjectsOutput, upsertProjectsMeta } from './upsert-projects.types.ts';

type ItemError = { index: number; name: string; error: string };

/** A failure that is not any one item's fault fails the whole request. */
const failsRequest = (err: unknown) => err instanceof AppError || isDatabaseUnavailable(err);

export const upsertProjects = keyedProcedure
  .meta(upsertProjectsMeta)
  .input(UpsertProjectsInput)
  .output(UpsertProjectsOutput)
  .mutation(async ({ ctx, input }) => {
    const how: RevisionContext = { via: 'upsert', actor: actorOf(ctx) };
    const errors: ItemError[] = [];
    const valid: { index: number; project: ProjectInput }[] = [];
    for (const [index, project] of input.projects.entries()) {
      const repeated = repeatedLinkUrlDetail(project);
      if (repeated) errors.push({ index, name: project.name, error: repeated });
      else valid.push({ index, project });
    }

    // The whole batch in one transaction, set-based. Should that fail, the items are written
    // again one by one, each in its own transaction (DECISIONS: one failing item does not
    // undo the others), so that only the failing item fails.
    let written: (UpsertResult | undefined)[];
    try {
      written = await inTransaction(ctx.db, (trx) =>
        upsertInOrder(
          trx,
          valid.map((v) => v.project),
          how,
        ),
      );
    } catch (err) {
      if (failsRequest(err)) throw err;
      // Logged: the set-based write is expected to succeed whenever the items one by one do.
      ctx.reportError(err);
      written = [];
      for (const { index, project } of valid) {
        try {
          written.push(await inTransaction(ctx.db, (trx) => upsertProject(trx, project, how)));
        } catch (err) {
          if (failsRequest(err)) throw err;
          written.push(undefined);
          errors.push({
            index,
            name: project.name,
            error: `Internal error while saving this item (reference ${ctx.reportError(err)})`,
          });
        }
      }
    }
    // One entry per submitted item, in order (EXTENSIONS A): what was done, and the slug.
    const byIndex = new Map(valid.map((v, i) => [v.index, written[i]]));
    const results = input.projects.map((_, index) => {
      const done = byIndex.get(index);
      return done
        ? { index, action: done.action, id: done.id, slug: done.slug, ...(done.kept && { kept: done.kept }) }
        : { index, action: 'failed' as const, id: null, slug: null };
    });
    const actions = results.map((r) => r.action);
    errors.sort((a, b) => a.index - b.index);
    return {
      success: true as const,
      processed: input.projects.length,
      created: actions.filter((a) => a === 'created').length,
      updated: actions.filter((a) => a === 'updated').length,
      failed: errors.length,
      errors,
      results,
    };
  });
