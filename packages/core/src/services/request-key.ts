import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from '../auth.ts';

/**
 * The key of the request being answered, set by the key check (trpc.ts requireKey) for
 * everything the procedure does: the revisions a write stores record it
 * (docs/keys-and-limits.md#named-keys-and-scopes) without every write path passing it along.
 */
export const requestKey = new AsyncLocalStorage<Principal>();

/** The request's edit summary (X-Directory-Summary, checked by trpc.ts requireKey), if any. */
export const requestSummary = new AsyncLocalStorage<string | null>();

export const currentSummary = (): string | null => requestSummary.getStore() ?? null;

/** `{id, name}` of the named key of the current request; null for the bootstrap key or none. */
export function currentNamedKey(): { id: string; name: string } | null {
  const principal = requestKey.getStore();
  return principal?.id ? { id: principal.id, name: principal.name } : null;
}
