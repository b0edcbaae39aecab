import { isScope, SCOPES, type Scope } from '@directory/core/scopes';
import { type Command, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_OK, UsageError } from '../errors.ts';
import { printNewKey } from './new-key.ts';

/** `--scopes a,b`: each a scope of the service, or a usage error that lists them. */
function scopesOption(raw: string | undefined, command: string): Scope[] {
  if (raw === undefined) throw new UsageError(`--scopes is required; scopes: ${SCOPES.join(', ')}`, command);
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.find((s) => !isScope(s));
  if (unknown !== undefined)
    throw new UsageError(`unknown scope '${unknown}'; scopes: ${SCOPES.join(', ')}`, command);
  return scopes as Scope[];
}

/** `--rate-limit 600/60`: requests per window of seconds. */
function rateLimitOption(raw: string | undefined): { requests: number; windowSeconds: number } | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m)
    throw new UsageError(
      `--rate-limit must be <requests>/<seconds>, e.g. 600/60, got '${raw}'`,
      'keys create',
    );
  return { requests: Number(m[1]), windowSeconds: Number(m[2]) };
}

export const createKey: Command = {
  name: 'keys create',
  summary: 'Make a named key with the scopes it may use (shown once)',
  synopsis: 'keys create --name <name> --scopes <a,b,…> [options]',
  help: `
Needs a key with keys:admin. The new key is printed once, alone on stdout (so that
KEY=$(directory keys create …) keeps it); what it is goes to stderr. The service keeps only its
hash: it cannot show the key again (rotate it to get a new one).

Options:
  --name <name>          who holds it (1-100 characters): recorded as the author of its writes
  --scopes <a,b,…>       ${SCOPES.join(', ')}
  --expires-at <time>    when it stops working (ISO 8601, in the future)
  --rate-limit <n>/<s>   its own limit: n requests per s seconds (else the server's default)

With --json, stdout is the service's reply { success, data: { id, name, key, start, scopes, … } }.

Example:
  directory keys create --name crawler-fleet --scopes tasks:write,projects:write --rate-limit 600/60`,
  options: {
    name: { type: 'string' },
    scopes: { type: 'string' },
    'expires-at': { type: 'string' },
    'rate-limit': { type: 'string' },
  },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const name = stringOption(ctx.values, 'name');
    if (name === undefined) throw new UsageError('--name is required', 'keys create');
    const scopes = scopesOption(stringOption(ctx.values, 'scopes'), 'keys create');
    const expiresAt = stringOption(ctx.values, 'expires-at');
    const rateLimit = rateLimitOption(stringOption(ctx.values, 'rate-limit'));
    const reply = await ctx.client.keys.create({
      name,
      scopes,
      ...(expiresAt !== undefined && { expiresAt }),
      ...(rateLimit !== undefined && { rateLimit }),
    });
    if (ctx.json) printJson(ctx, reply);
    else printNewKey(ctx, reply.data, 'Created the key');
    return EXIT_OK;
  },
};
