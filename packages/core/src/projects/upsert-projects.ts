import { actorOf } from '../domain/actor.ts';
import type { RevisionContext } from '../domain/revision-context.ts';
import type { ProjectInput } from '../schemas/project.ts';
import { repeatedLinkUrlDetail } from '../schemas/project.ts';
import { type ItemError, upsertBatch } from '../services/upsert-batch.ts';
import { keyedProcedure } from '../trpc.ts';
import { UpsertProjectsInput, UpsertProjectsOutput, upsertProjectsMeta } from './upsert-projects.types.ts';

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

    const batch = await upsertBatch(ctx, valid, how, (err) => ctx.reportError(err));
    const written = batch.written;
    errors.push(...batch.errors);
    // One entry per submitted item, in order
    // (docs/api.md#1-post-apiwebhookprojects-create-or-update-projects): what was done, and the slug.
    const byIndex = new Map(valid.map((v, i) => [v.index, written[i]]));
    const results = input.projects.map((_, index) => {
      const done = byIndex.get(index);
      return done
        ? {
            index,
            action: done.action,
            id: done.id,
            slug: done.slug,
            ...(done.kept && { kept: done.kept }),
            ...(done.warnings && { warnings: done.warnings }),
          }
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
