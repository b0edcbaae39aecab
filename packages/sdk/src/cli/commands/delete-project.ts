import type { Command } from '../args.ts';
import { plural } from '../progress.ts';
import { onProject } from './by-slug.ts';

export const deleteProject: Command = {
  name: 'delete',
  summary: 'Delete one project by slug, with its links and tag associations',
  synopsis: 'delete <slug>',
  help: `
The tags themselves remain. Exit 1 when no project has the slug. With --json, stdout is the
service's reply { success, message, data: { project, deleted } }.

Example:
  directory delete deepseek-v3`,
  options: {},
  args: { min: 1, max: 1 },

  run: (ctx) =>
    onProject(ctx, ctx.client.projects.delete, ({ data: { project, deleted } }) =>
      ctx.print(
        `Deleted ${JSON.stringify(project.name)} (${project.slug}): ${plural(deleted.linksCount, 'link', 'links')}, ${plural(deleted.tagsCount, 'tag association', 'tag associations')}`,
      ),
    ),
};
