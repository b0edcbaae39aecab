/**
 * The scopes (docs/keys-and-limits.md#named-keys-and-scopes): what a key may do. A procedure declares the
 * one it needs in its meta (`scope`, meta.ts); the keyed middleware (trpc.ts) refuses a key without it
 * with 403.
 */
export const SCOPES = [
  'projects:write',
  'tasks:read',
  'tasks:write',
  'curate',
  'changes:read',
  'webhooks:manage',
  'keys:admin',
  'metrics:read',
  'export',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What a procedure needs: a scope, or `any-key` (any valid key, whatever its scopes). */
export type RequiredScope = Scope | 'any-key';

/** Scopes that include others: `tasks:write` implies `tasks:read`. */
const IMPLIES: Partial<Record<Scope, readonly Scope[]>> = { 'tasks:write': ['tasks:read'] };

/** Whether keys with `held` may do what needs `needed`. */
export function grants(held: readonly Scope[], needed: RequiredScope): boolean {
  if (needed === 'any-key') return true;
  return held.some((s) => s === needed || IMPLIES[s]?.includes(needed));
}

export const isScope = (s: unknown): s is Scope =>
  typeof s === 'string' && (SCOPES as readonly string[]).includes(s);
