import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { orFailed } from './history.ts';

export const revokeKey: Command = {
  name: 'keys revoke',
  summary: 'Revoke a named key: every server process refuses it within a second',
  synopsis: 'keys revoke <id>',
  help: `
Needs a key with keys:admin. <id> is the ID column of 'directory keys list'. Revoking a revoked
key changes nothing. Exit 1 for an unknown id.

With --json, stdout is the service's reply { success, data } (the key's record).

Example:
  directory keys revoke k3v9q2m8x1c4b7n5z6`,
  options: {},
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [id] = ctx.positionals as [string];
    const reply = await orFailed(ctx.warn, () => ctx.client.keys.revoke({ id }));
    if (!reply) return EXIT_FAILED;
    if (ctx.json) printJson(ctx, reply);
    else ctx.print(`Revoked the key "${reply.data.name}" (${reply.data.id}, ${reply.data.start}…)`);
    return EXIT_OK;
  },
};
