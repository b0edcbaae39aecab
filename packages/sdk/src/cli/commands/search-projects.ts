import type { FindProjectsInput, ProjectListItem } from '../../types.ts';
import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { table } from '../format.ts';

const list = (v: unknown): string[] | undefined =>
  v === undefined ? undefined : (Array.isArray(v) ? v : [v]).map(String);

export const searchProjects: Command = {
  name: 'search',
  summary: 'Search and browse projects (Chinese, English, pinyin, initials, slug)',
  synopsis: 'search [<q>] [options]',
  help: `
Without <q>, lists projects (most recently updated first).

Options:
  --tag <slug>        only projects with this tag; repeatable (every tag required)
  --any-tag           with several --tag, one is enough
  --link-type <T>     WEBSITE, CODEHOST, MODELHUB or PAPER; repeatable
  --status <S>        ACTIVE, ARCHIVED or ALL (default ALL)
  --sort <S>          relevance (with <q>, the default), updated, created, name or standing
  --order <O>         asc or desc
  --limit <N>         projects to show, 1-100 (default 20)
  --all               every match, page after page

With --json, stdout is the service's reply (with --all: { projects: [...] }).

Examples:
  directory search 通义
  directory search tyqw --json
  directory search --tag llm --sort name`,
  options: {
    tag: { type: 'string', multiple: true },
    'any-tag': { type: 'boolean' },
    'link-type': { type: 'string', multiple: true },
    status: { type: 'string' },
    sort: { type: 'string' },
    order: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean' },
  },
  args: { min: 0, max: 1 },

  async run(ctx) {
    const input: FindProjectsInput = {
      ...(ctx.positionals[0] !== undefined && { q: ctx.positionals[0] }),
      tag: list(ctx.values.tag),
      ...(ctx.values['any-tag'] === true && { tagMode: 'any' as const }),
      linkType: list(ctx.values['link-type'])?.map((t) => t.toUpperCase()) as FindProjectsInput['linkType'],
      status: stringOption(ctx.values, 'status')?.toUpperCase() as FindProjectsInput['status'],
      sort: stringOption(ctx.values, 'sort') as FindProjectsInput['sort'],
      order: stringOption(ctx.values, 'order') as FindProjectsInput['order'],
      limit: intOption(ctx.values, 'limit', 'search'),
    };
    if (ctx.values.all) {
      const { q, limit: _limit, ...rest } = input;
      const projects: ProjectListItem[] = [];
      for await (const p of ctx.client.projects.search(q, { ...rest, limit: 100 })) projects.push(p);
      if (ctx.json) printJson(ctx, { success: true, projects });
      else printProjects(ctx.print, projects, `${projects.length} projects`);
      return EXIT_OK;
    }
    const page = await ctx.client.projects.list(input);
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    const footer = page.projects.length
      ? `${page.projects.length} of ${page.totalExact ? '' : 'over '}${page.total}${page.hasMore ? ' (--all for every match)' : ''}`
      : 'No projects found';
    printProjects(ctx.print, page.projects, footer);
    return EXIT_OK;
  },
};

function printProjects(print: (line?: string) => void, projects: ProjectListItem[], footer: string) {
  if (projects.length > 0) {
    const rows = projects.map((p) => [
      p.slug,
      p.name,
      p.status,
      p.tags.map((t) => t.slug).join(','),
      p.match ? p.match.field : '',
    ]);
    for (const line of table(['SLUG', 'NAME', 'STATUS', 'TAGS', 'MATCH'], rows)) print(line);
  }
  print(footer);
}
