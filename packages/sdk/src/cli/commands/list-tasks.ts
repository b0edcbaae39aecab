import type { Task, TaskStatus } from '../../index.ts';
import { type Command, intOption, stringOption } from '../args.ts';
import { type CommandContext, printJson } from '../context.ts';
import { EXIT_OK, UsageError } from '../errors.ts';
import { shortTime, table } from '../format.ts';
import { plural } from '../progress.ts';

export const listTasks: Command = {
  name: 'tasks list',
  summary: 'List discovery tasks in queue order',
  synopsis: 'tasks list [options]',
  help: `
Options:
  --status <S>      PENDING, IN_PROGRESS, COMPLETED or FAILED (any case)
  --limit <N>       tasks per page, 1-100 (the service's default: 10)
  --offset <N>      tasks to skip (default 0)
  --all             every task (of --status, if given), fetched page by page

The table shows each task's attempt, when it may be claimed again (AVAILABLE; '-' is now) and
the first line of its errorMessage (cut at 60 characters; --json has it whole). With --json,
stdout is the service's reply { success, tasks, total, hasMore }; with --all, the same shape
holding every task.

Example:
  directory tasks list --status PENDING --limit 20`,
  options: {
    status: { type: 'string' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    all: { type: 'boolean' },
  },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const limit = intOption(ctx.values, 'limit', 'tasks list');
    const offset = intOption(ctx.values, 'offset', 'tasks list');
    // The service checks the value; upper case just spares typing it.
    const status = stringOption(ctx.values, 'status')?.toUpperCase() as TaskStatus | undefined;
    if (ctx.values.all) {
      if (limit !== undefined || offset !== undefined) {
        throw new UsageError('--all takes no --limit or --offset', 'tasks list');
      }
      const tasks: Task[] = [];
      for await (const page of ctx.client.tasks.listAll({ status, pageSize: 100 })) tasks.push(...page);
      if (ctx.json) printJson(ctx, { success: true, tasks, total: tasks.length, hasMore: false });
      else printTasks(ctx, tasks, tasks.length ? plural(tasks.length, 'task', 'tasks') : 'No tasks');
      return EXIT_OK;
    }
    const page = await ctx.client.tasks.list({ status, limit, offset });
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    const from = offset ?? 0;
    const shown = page.tasks.length
      ? `Tasks ${from + 1}-${from + page.tasks.length} of ${page.total}`
      : `No tasks at offset ${from} (${page.total} in all)`;
    const next = page.hasMore ? `; next page: --offset ${from + page.tasks.length}` : '';
    printTasks(ctx, page.tasks, `${shown}${next}`);
    return EXIT_OK;
  },
};

/** Error messages run to 2000 characters; the table shows their first line, cut to this. */
const ERROR_WIDTH = 60;

const shortError = (message: string | null) => {
  const first = (message ?? '').split('\n')[0] ?? '';
  return first.length > ERROR_WIDTH ? `${first.slice(0, ERROR_WIDTH - 1)}…` : first;
};

function printTasks(ctx: CommandContext, tasks: Task[], footer: string) {
  if (tasks.length > 0) {
    // What an operator asks of a task that is not moving: which attempt, when it may be claimed
    // again (a released or reaped task waits out its backoff), and why it last failed.
    const rows = tasks.map((t) => [
      t.id,
      t.status,
      t.sourceType,
      String(t.attempt),
      shortTime(t.createdAt),
      shortTime(t.availableAt),
      t.sourceUrl,
      shortError(t.errorMessage),
    ]);
    const headers = ['ID', 'STATUS', 'TYPE', 'ATTEMPT', 'CREATED', 'AVAILABLE', 'SOURCE URL', 'ERROR'];
    for (const line of table(headers, rows)) ctx.print(line);
  }
  ctx.print(footer);
}
