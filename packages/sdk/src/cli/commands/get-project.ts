import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, isNotFound } from '../errors.ts';
import { shortTime } from '../format.ts';

export const getProject: Command = {
  name: 'get',
  summary: 'Show one project by slug',
  synopsis: 'get <slug>',
  help: `
Exit 1 when no project has the slug. With --json, stdout is the service's reply
{ success, data }.

Example:
  directory get deepseek-v3 --json`,
  options: {},
  args: { min: 1, max: 1 },

  async run(ctx) {
    const slug = ctx.positionals[0]!;
    let reply: Awaited<ReturnType<typeof ctx.client.projects.get>>;
    try {
      reply = await ctx.client.projects.get({ slug });
    } catch (err) {
      // A missing project is an answer, not a broken command: exit 1, not 2.
      if (!isNotFound(err)) throw err;
      ctx.warn(`error: ${err.details[0] ?? err.message}`);
      return EXIT_FAILED;
    }
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const p = reply.data;
    const fields: [string, string | null | undefined][] = [
      ['name', p.name],
      ['nameEn', p.nameEn],
      ['slug', p.slug],
      ['status', p.status],
      ['description', p.description],
      ['descriptionEn', p.descriptionEn],
      ['source', p.source],
      ['tags', p.tags.map((t) => (t.nameEn ? `${t.name} (${t.nameEn})` : t.name)).join(', ')],
      ['created', shortTime(p.createdAt)],
      ['updated', shortTime(p.updatedAt)],
      ['id', p.id],
    ];
    for (const [label, value] of fields) {
      if (value) ctx.print(`${`${label}:`.padEnd(15)}${value}`);
    }
    ctx.print('links:');
    for (const l of p.links) ctx.print(`  ${l.type.padEnd(9)} ${l.url}${l.title ? `  ${l.title}` : ''}`);
    if (p.content) ctx.print(`content:       ${p.content.length} characters (see --json)`);
    return EXIT_OK;
  },
};
