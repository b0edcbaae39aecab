import { missingProject } from '../services/aliases.ts';
import { publicProcedure, readDbOf, readModelOf } from '../trpc.ts';
import { trustedOutput } from '../trusted-output.ts';
import {
  FindRelatedProjectsInput,
  FindRelatedProjectsOutput,
  findRelatedProjectsMeta,
} from './find-related-projects.types.ts';
import { projectNotFound } from './get-project.ts';
import { listItem } from './list-item.ts';

/**
 * GET /api/projects/{slug}/related from the read model: the engine finds and explains the
 * related projects (packages/search/src/related.ts; docs/search.md#related-projects), the
 * model's detail cache gives them in a list's shape. A slug the model does not know is an
 * alias (301) or a 404, as endpoint 2 answers.
 */
export const findRelatedProjects = publicProcedure
  .meta(findRelatedProjectsMeta)
  .input(FindRelatedProjectsInput)
  .output(trustedOutput(FindRelatedProjectsOutput))
  .query(async ({ ctx, input }) => {
    const model = await readModelOf(ctx, input.minPosition);
    // the search, the page's details and the answer in the read's turn (read-model/read.ts)
    const answer = await model.read(
      (index) => {
        const id = model.idOfSlug(input.slug);
        const found = id === undefined ? undefined : index.findRelated(id, input.limit);
        return { ids: found?.map((h) => h.id) ?? [], page: found };
      },
      (found, projects) => {
        if (!found) return undefined;
        const byId = new Map(projects.map((p) => [p.body.id, p]));
        return {
          success: true as const,
          projects: found.flatMap((hit) => {
            const p = byId.get(hit.id);
            const related = { score: hit.score / 1000, tags: hit.tags, words: hit.words, owner: hit.owner };
            return p ? [listItem(p, { related }, false)] : [];
          }),
        };
      },
    );
    // the REST adapter's 301 keeps the rest of the path and the query (apps/server/src/moved.ts)
    if (!answer) throw await missingProject(readDbOf(ctx), input.slug, 'read', projectNotFound(input.slug));
    return answer;
  });
