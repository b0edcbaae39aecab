import { DirectoryError } from '../../errors.ts';
import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { plural } from '../progress.ts';

export const mergeProjects: Command = {
  name: 'merge',
  summary: 'Merge one project into another; its slug becomes an alias',
  synopsis: 'merge <from> <into>',
  help: `
One transaction on the service: the links of <from> whose url keys <into> lacks and the tags it
lacks are appended to <into>'s, tasks pointing at <from> point at <into>, and <from> is removed;
its slug then answers 301 to <into>. Exit 1 when either slug is unknown, when <into> is <from>,
or when either is an alias already (the service's message names the project to use). With
--json, stdout is the service's reply { success, data: { project, merged } }.

Example:
  directory duplicates
  directory merge tongyi-qianwen qwen`,
  options: {},
  args: { min: 2, max: 2 },

  async run(ctx) {
    const [slug, into] = ctx.positionals as [string, string];
    let reply: Awaited<ReturnType<typeof ctx.client.projects.merge>>;
    try {
      reply = await ctx.client.projects.merge({ slug, into });
    } catch (err) {
      if (!(err instanceof DirectoryError) || (err.status !== 404 && err.status !== 409)) throw err;
      ctx.warn(`error: ${err.details[0] ?? err.message}`);
      return EXIT_FAILED;
    }
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const { project, merged } = reply.data;
    ctx.print(
      `Merged ${merged.slug} into ${project.slug} (${JSON.stringify(project.name)}): now ` +
        `${plural(project.links.length, 'link', 'links')}, ${plural(project.tags.length, 'tag', 'tags')}; ` +
        `${merged.slug} is an alias of ${project.slug}`,
    );
    return EXIT_OK;
  },
};
