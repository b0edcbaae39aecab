import { type Command, intOption } from '../args.ts';
import { table } from '../format.ts';
import { onProject } from './by-slug.ts';

export const relatedProjects: Command = {
  name: 'related',
  summary: 'Projects like one project (shared tags, rare words, link owner), and why',
  synopsis: 'related <slug> [--limit N]',
  help: `
Most alike first. SCORE is the weight of what the two share; TAGS, WORDS and OWNER say
what that is. Exit 1 when no project has the slug.

Options:
  --limit <N>   projects to show, 1-20 (default 6)

With --json, stdout is the service's reply { success, projects }.

Example:
  directory related deepseek-v3 --limit 3`,
  options: { limit: { type: 'string' } },
  args: { min: 1, max: 1 },

  run(ctx) {
    const limit = intOption(ctx.values, 'limit', 'related');
    return onProject(
      ctx,
      (input) => ctx.client.projects.related({ ...input, ...(limit !== undefined && { limit }) }),
      ({ projects }) => {
        if (projects.length === 0) {
          ctx.print('No related projects');
          return;
        }
        const rows = projects.map((p) => [
          p.slug,
          p.name,
          p.related.score.toFixed(1),
          p.related.tags.join(',') || '-',
          p.related.words.join(',') || '-',
          p.related.owner ?? '-',
        ]);
        for (const line of table(['SLUG', 'NAME', 'SCORE', 'TAGS', 'WORDS', 'OWNER'], rows)) ctx.print(line);
      },
    );
  },
};
