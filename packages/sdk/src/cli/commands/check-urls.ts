import type { RouterOutputs } from '../../index.ts';
import { type Command, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { table } from '../format.ts';
import { plural } from '../progress.ts';

type CheckReply = RouterOutputs['tasks']['checkDuplicates'];

/** The endpoint's limit per request. */
const CHUNK = 100;

export const checkUrls: Command = {
  name: 'check',
  summary: 'Tell, per URL, whether a discovery task should be created for it',
  synopsis: 'check <url...>',
  help: `
Asks the service (POST /api/discovery/check-duplicates) whether each URL already has a task
or a project. Informational: exits 0 whatever the answers.

Options:
  --source-type <type>  passed along to the service

Example:
  directory check https://github.com/a/b https://example.org/new`,
  options: { 'source-type': { type: 'string' } },
  args: { min: 1, max: Number.POSITIVE_INFINITY },

  async run(ctx) {
    const sourceType = stringOption(ctx.values, 'source-type');
    const reply: CheckReply = {
      success: true,
      results: [],
      stats: { total: 0, shouldCreate: 0, duplicate: 0 },
    };
    // More URLs than one request takes are asked in chunks and answered as one reply.
    for (let i = 0; i < ctx.positionals.length; i += CHUNK) {
      const part = await ctx.client.tasks.checkDuplicates({
        urls: ctx.positionals.slice(i, i + CHUNK),
        ...(sourceType !== undefined && { sourceType }),
      });
      reply.results.push(...part.results);
      reply.stats.total += part.stats.total;
      reply.stats.shouldCreate += part.stats.shouldCreate;
      reply.stats.duplicate += part.stats.duplicate;
    }
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const rows = reply.results.map((r) => {
      const by = r.existingTask
        ? ` (task ${r.existingTask.id})`
        : r.existingProject
          ? ` (project ${r.existingProject.slug})`
          : '';
      return [r.url, r.shouldCreate ? 'yes' : 'no', `${r.reason}${by}`];
    });
    for (const line of table(['URL', 'CREATE', 'REASON'], rows)) ctx.print(line);
    ctx.print(
      `${plural(reply.stats.total, 'URL', 'URLs')}: ${reply.stats.shouldCreate} to create, ${reply.stats.duplicate} ${reply.stats.duplicate === 1 ? 'duplicate' : 'duplicates'}`,
    );
    return EXIT_OK;
  },
};
