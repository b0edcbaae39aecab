import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK } from '../errors.ts';
import { shortTime, table } from '../format.ts';

/** active, expired, revoked, or `until <time>` (rotated with a grace period that has not run out). */
export function keyState(key: { expiresAt: string | null; revokedAt: string | null }, now: number): string {
  if (key.revokedAt !== null)
    return Date.parse(key.revokedAt) > now ? `until ${shortTime(key.revokedAt)}` : 'revoked';
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

export const listKeys: Command = {
  name: 'keys list',
  summary: 'The named keys, newest first (never the keys themselves)',
  synopsis: 'keys list [options]',
  help: `
Needs a key with keys:admin. One line per key: its id (for revoke and rotate), name, first
characters, scopes, when it was made and last used (recorded at most once a minute), its own
rate limit (requests/seconds; 'default' for the server's), when it expires ('-': never), and its
state: active, expired, revoked, or 'until <time>' for a key rotated with a grace period.

Options:
  --limit <N>      keys per page, 1-100 (default 20)
  --cursor <C>     the page after the one that printed this cursor

With --json, stdout is the service's reply { success, data, nextCursor }.

Example:
  directory keys list`,
  options: { limit: { type: 'string' }, cursor: { type: 'string' } },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const cursor = stringOption(ctx.values, 'cursor');
    const page = await ctx.client.keys.list({
      limit: intOption(ctx.values, 'limit', 'keys list'),
      ...(cursor !== undefined && { cursor }),
    });
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    const now = Date.now();
    const rows = page.data.map((k) => [
      k.id,
      k.name,
      `${k.start}…`,
      k.scopes.join(','),
      shortTime(k.createdAt),
      shortTime(k.lastUsedAt),
      k.rateLimit === null ? 'default' : `${k.rateLimit.requests}/${k.rateLimit.windowSeconds}s`,
      shortTime(k.expiresAt),
      keyState(k, now),
    ]);
    if (rows.length > 0)
      for (const line of table(
        ['ID', 'NAME', 'KEY', 'SCOPES', 'CREATED', 'LAST USED', 'LIMIT', 'EXPIRES', 'STATE'],
        rows,
      ))
        ctx.print(line);
    else ctx.print('No named keys');
    if (page.nextCursor) ctx.print(`next page: --cursor ${page.nextCursor}`);
    return EXIT_OK;
  },
};
