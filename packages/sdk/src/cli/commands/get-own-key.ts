import { SCOPES } from '@directory/core/scopes';
import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { shortTime } from '../format.ts';
import { keyState } from './list-keys.ts';

export const getOwnKey: Command = {
  name: 'keys self',
  summary: 'Show the key you are using: its name, scopes, expiry, limit and state',
  synopsis: 'keys self',
  help: `
Any valid key may ask (no scope needed): which key the CLI is sending (--api-key, the variables,
or data/api-key) and what it may do. For a named key: its name, id, first characters, scopes,
when it was made, expires and was last used, its rate limit and its state (as in 'keys list').
The bootstrap key (WEBHOOK_API_KEY) has no id and every scope. Exit 2 when the key is refused
(401: unknown, expired or revoked) or none is set.

With --json, stdout is the service's reply { success, data } (id null for the bootstrap key).

Example:
  DIRECTORY_API_KEY=$CRAWLER_KEY directory keys self`,
  options: {},
  args: { min: 0, max: 0 },

  async run(ctx) {
    const reply = await ctx.client.keys.self();
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    const k = reply.data;
    const scopes = k.scopes.join(', ') || 'none';
    if (k.id === null) {
      ctx.print(`name:       ${k.name}`);
      ctx.print('id:         - (the bootstrap key: WEBHOOK_API_KEY, or the data/api-key the server made)');
      ctx.print(`scopes:     ${k.scopes.length === SCOPES.length ? `every scope (${scopes})` : scopes}`);
      return EXIT_OK;
    }
    const fields: [string, string][] = [
      ['name', k.name],
      ['id', k.id],
      ['key', `${k.start}…`],
      ['scopes', scopes],
      ['created', shortTime(k.createdAt)],
      ['expires', k.expiresAt === null ? 'never' : shortTime(k.expiresAt)],
      [
        'rate limit',
        k.rateLimit === null
          ? "the server's default (RATE_LIMIT_KEY_PER_MINUTE)"
          : `${k.rateLimit.requests} requests per ${k.rateLimit.windowSeconds} s`,
      ],
      ['last used', shortTime(k.lastUsedAt)],
      ['state', keyState(k, Date.now())],
    ];
    for (const [label, value] of fields) ctx.print(`${`${label}:`.padEnd(12)}${value}`);
    return EXIT_OK;
  },
};
