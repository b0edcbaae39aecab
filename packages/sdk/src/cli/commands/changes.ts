import type { Change } from '../../index.ts';
import { type Command, intOption, stringOption } from '../args.ts';
import { type CommandContext, printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';

const line = (c: Change) =>
  `${c.at}  ${c.type.padEnd(15)}  ${c.slug ?? c.projectId ?? '-'}${c.taskId ? `  task ${c.taskId}` : ''}  ${c.cursor}`;

export const changes: Command = {
  name: 'changes',
  summary: 'Show the change feed; --follow prints changes as they happen',
  synopsis: 'changes [--follow] [--after <cursor>]',
  help: `
Lists project and task changes in feed order, one per line: time, type, slug (or project id),
task id, and the change's cursor. Without --follow, one page (--limit, default 100) and the
cursor to continue from (on stderr). With --follow, waits for new changes and prints them as
they happen until interrupted (Ctrl-C); pass the last cursor printed as --after to resume
without missing or repeating a change.

Options:
  --follow          keep printing changes as they happen (long-polls the service)
  --after <cursor>  start after this cursor (default: the oldest retained change)
  --limit <N>       changes per request, 1-1000

With --json, stdout is the service's reply { success, changes, nextCursor, hasMore }; with
--follow, one change per line as JSON (NDJSON).

Example:
  directory changes --follow --after "$(cat last-cursor)" --json`,
  options: { follow: { type: 'boolean' }, after: { type: 'string' }, limit: { type: 'string' } },
  args: { min: 0, max: 0 },

  async run(ctx: CommandContext) {
    const after = stringOption(ctx.values, 'after');
    const limit = intOption(ctx.values, 'limit', 'changes');
    if (ctx.values.follow) {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        for await (const change of ctx.client.changes.follow({ after, limit, signal: stop.signal })) {
          ctx.print(ctx.json ? JSON.stringify(change) : line(change));
        }
      } finally {
        process.off('SIGINT', onSignal);
      }
      return EXIT_OK;
    }
    const page = await ctx.client.changes.list({ after, limit });
    if (ctx.json) printJson(ctx, page);
    else {
      for (const c of page.changes) ctx.print(line(c));
      ctx.warn(`${page.changes.length ? '' : 'No changes. '}Continue with --after ${page.nextCursor}`);
    }
    return EXIT_OK;
  },
};
