import type { CommandContext } from '../context.ts';

interface NewKey {
  id: string;
  name: string;
  key: string;
  scopes: string[];
}

/**
 * A key just made (create, rotate): the key alone on stdout, so that `KEY=$(directory keys create …)`
 * holds it; what it is, and that it is not shown again, on stderr.
 */
export function printNewKey(ctx: CommandContext, key: NewKey, what: string): void {
  ctx.warn(`${what} "${key.name}" (id ${key.id}; scopes ${key.scopes.join(', ') || 'none'}).`);
  ctx.warn('This is the only time the key is shown: keep it now (the service keeps only its hash).');
  ctx.print(key.key);
}
