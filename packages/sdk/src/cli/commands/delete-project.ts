import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, isNotFound } from '../errors.ts';
import { plural } from '../progress.ts';

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

  async run(ctx) {
    const slug = ctx.positionals[0]!;
    let reply: Awaited<ReturnType<typeof ctx.client.projects.delete>>;
    try {
      reply = await ctx.client.projects.delete({ slug });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      ctx.warn(`error: ${err.details[0] ?? err.message}`);
      return EXIT_FAILED;
    }
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const { project, deleted } = reply.data;
    ctx.print(
      `Deleted ${JSON.stringify(project.name)} (${project.slug}): ${plural(deleted.linksCount, 'link', 'links')}, ${plural(deleted.tagsCount, 'tag association', 'tag associations')}`,
    );
    return EXIT_OK;
  },
};
