import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { table } from '../format.ts';

export const listDuplicates: Command = {
  name: 'duplicates',
  summary: 'List groups of projects that look like one, to merge',
  synopsis: 'duplicates [options]',
  help: `
A group is the projects sharing a link's url key (reason link: the same repository, model or
paper however spelled) or a name once lower-cased without spaces and punctuation (reason name).
Nothing is merged automatically: pick the project to keep and run 'directory merge'.

Options:
  --limit <N>      groups per page, 1-100 (default 20)
  --cursor <C>     the page after the one that printed this cursor

With --json, stdout is the service's reply { success, groups, nextCursor }.

Example:
  directory duplicates --limit 5`,
  options: { limit: { type: 'string' }, cursor: { type: 'string' } },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const cursor = stringOption(ctx.values, 'cursor');
    const page = await ctx.client.projects.duplicates({
      limit: intOption(ctx.values, 'limit', 'duplicates'),
      ...(cursor !== undefined && { cursor }),
    });
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    for (const group of page.groups) {
      ctx.print(`${group.reason} ${group.key}`);
      const rows = group.projects.map((p) => [p.slug, p.name, p.nameEn ?? '', p.id]);
      for (const line of table(['SLUG', 'NAME', 'NAME (EN)', 'ID'], rows)) ctx.print(`  ${line}`);
    }
    ctx.print(
      page.groups.length
        ? `${page.groups.length} groups${page.nextCursor ? ` (more: --cursor ${page.nextCursor})` : ''}`
        : 'No duplicates',
    );
    return EXIT_OK;
  },
};
