import { type Command, intOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { shortTime } from '../format.ts';
import { orFailed } from './history.ts';
import { printNewKey } from './new-key.ts';

export const rotateKey: Command = {
  name: 'keys rotate',
  summary: 'Replace a named key by a new one (shown once); the old one works for a grace period',
  synopsis: 'keys rotate <id> [--grace <seconds>]',
  help: `
Needs a key with keys:admin. The new key has the old one's name, scopes, expiry and limit, and is
printed once, alone on stdout; the old key keeps working for --grace seconds (0-604800, default
0: refused at once), or until its expiry if that comes first. Exit 1 for an unknown id, or a key
that is revoked or expired (409).

Options:
  --grace <seconds>  how long the old key keeps working

With --json, stdout is the service's reply { success, data: { id, name, key, … } }.

Example:
  directory keys rotate k3v9q2m8x1c4b7n5z6 --grace 3600`,
  options: { grace: { type: 'string' } },
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [id] = ctx.positionals as [string];
    const graceSeconds = intOption(ctx.values, 'grace', 'keys rotate');
    const reply = await orFailed(ctx.warn, () =>
      ctx.client.keys.rotate({ id, ...(graceSeconds !== undefined && { graceSeconds }) }),
    );
    if (!reply) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const until = new Date(Date.now() + (graceSeconds ?? 0) * 1000).toISOString();
    ctx.warn(
      graceSeconds
        ? `The old key (${id}) works until about ${shortTime(until)} (or its expiry, if sooner), then is refused.`
        : `The old key (${id}) is refused from now on.`,
    );
    printNewKey(ctx, reply.data, 'Rotated the key');
    return EXIT_OK;
  },
};
