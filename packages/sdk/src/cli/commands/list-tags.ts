import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { table } from '../format.ts';

export const listTags: Command = {
  name: 'tags',
  summary: 'List tags with their project counts',
  synopsis: 'tags [<q>] [options]',
  help: `
Options:
  --sort <S>    count (default: most projects first) or name (Chinese by pinyin)
  --limit <N>   tags to show, 1-100 (default 50)

With --json, stdout is the service's reply { success, tags, hasMore, nextCursor }. A tag merged
into another is not listed: the ALIASES column of the one it went into names it. To curate them:
directory tags rename, directory tags merge.

Example:
  directory tags --sort name`,
  options: { sort: { type: 'string' }, limit: { type: 'string' } },
  args: { min: 0, max: 1 },

  async run(ctx) {
    const page = await ctx.client.tags.list({
      ...(ctx.positionals[0] !== undefined && { q: ctx.positionals[0] }),
      sort: stringOption(ctx.values, 'sort') as 'count' | 'name' | undefined,
      limit: intOption(ctx.values, 'limit', 'tags'),
    });
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    const aliases = page.tags.some((t) => t.aliases.length > 0);
    const rows = page.tags.map((t) => [
      t.slug,
      t.name,
      t.nameEn ?? '',
      String(t.projectCount),
      ...(aliases ? [t.aliases.join(', ')] : []),
    ]);
    const head = ['SLUG', 'NAME', 'NAME (EN)', 'PROJECTS', ...(aliases ? ['ALIASES'] : [])];
    if (rows.length) for (const line of table(head, rows)) ctx.print(line);
    ctx.print(
      page.tags.length ? `${page.tags.length} tags${page.hasMore ? ' (more: --limit)' : ''}` : 'No tags',
    );
    return EXIT_OK;
  },
};
