import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { table } from '../format.ts';

export const taskStats: Command = {
  name: 'tasks stats',
  summary: 'Show the figures of the task queue',
  synopsis: 'tasks stats',
  help: `
Counts by status, claimable / delayed / leased tasks, the age of the oldest claimable task and
how many leases the reaper has expired. With --json, stdout is the service's reply.

Example:
  directory tasks stats`,
  options: {},
  args: { min: 0, max: 0 },

  async run(ctx) {
    const stats = await ctx.client.tasks.stats();
    if (ctx.json) {
      printJson(ctx, stats);
      return EXIT_OK;
    }
    const rows = [
      ...Object.entries(stats.counts).map(([status, n]) => [status, String(n)]),
      ['claimable', String(stats.claimable)],
      ['delayed', String(stats.delayed)],
      ['leased', String(stats.leased)],
      ['oldest claimable (s)', String(stats.oldestClaimableAgeSeconds)],
      ['reaped in all', String(stats.reapedTotal)],
    ];
    for (const line of table(['FIGURE', 'VALUE'], rows)) ctx.print(line);
    return EXIT_OK;
  },
};
