import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../errors.ts';
import { orFailed } from './history.ts';

export const revertProject: Command = {
  name: 'revert',
  summary: "Make a project that revision's content again",
  synopsis: 'revert <slug> <n>',
  help: `
The project's fields, tags and links become exactly those of revision n (see 'directory history'),
stored as a new revision (via revert). Its slug, creation time and lock stay. Exit 1 for an
unknown slug or revision, or when a link of that revision now belongs to another project.

With --json, stdout is the service's reply { success, data, revision }.

Example:
  directory history qwen
  directory revert qwen 1`,
  options: {},
  args: { min: 2, max: 2 },

  async run(ctx) {
    const [slug, n] = ctx.positionals as [string, string];
    if (!/^[1-9]\d*$/.test(n))
      throw new UsageError(`n must be a revision number (1, 2, …), got '${n}'`, 'revert');
    const reply = await orFailed(ctx.warn, () => ctx.client.projects.revert({ slug, revision: Number(n) }));
    if (!reply) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    ctx.print(
      reply.revision === null
        ? `${slug} already is revision ${n}'s content: nothing changed`
        : `Reverted ${slug} to revision ${n}'s content (stored as revision ${reply.revision})`,
    );
    return EXIT_OK;
  },
};
