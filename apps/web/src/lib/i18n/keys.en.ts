import type { Scope } from '@directory/core/scopes';

/**
 * Signing in with a key, what a key may not do, and the Keys page
 * (docs/keys-and-limits.md#named-keys-and-scopes).
 */
export const keysEn = {
  navKeys: 'Keys',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signedInAs: 'Signed in as',
  signInTitle: 'Sign in with your key',
  signInHelp: 'Use the key you were given: its name is recorded as the author of every change you make here.',
  ownKeyTitle: (name: string) => `You are signed in as ${name}`,
  ownKeyMay: 'This key may',
  ownKeyMayNot: 'This key may not',
  /** What each scope allows, as the end of "Your key (…) cannot …". */
  scopeAction: {
    'projects:write': 'write projects through the API',
    'tasks:read': 'see the discovery queue',
    'tasks:write': 'add, retry or work tasks',
    curate: 'edit, merge, lock, revert, delete or restore projects',
    'changes:read': 'read the change feed',
    'webhooks:manage': 'manage webhooks',
    'keys:admin': 'manage keys',
    'metrics:read': 'read the metrics',
  } satisfies Record<Scope, string>,
  scopeLacking: (name: string, action: string, scope: string) =>
    `Your key (${name}) cannot ${action}: it lacks ${scope}.`,
  keysTitle: 'Keys',
  keysHelp:
    'Give each crawler, curator and integration its own key with only the scopes it needs: its writes are recorded under its name, and you can revoke or rotate it alone.',
  createKey: 'Create key',
  keyName: 'Name',
  keyScopes: 'Scopes',
  keyStart: 'Key',
  keyCreatedAt: 'Created',
  keyLastUsed: 'Last used',
  keyState: 'State',
  keyActions: 'Actions',
  keyNever: 'never',
  keyActive: 'active',
  keyRevoked: 'revoked',
  keyExpired: 'expired',
  keyUntil: (at: string) => `works until ${at}`,
  keyExpiresAt: 'Expires',
  keyNoExpiry: 'never',
  keyRateLimit: 'Rate limit',
  keyRate: (requests: number, seconds: number) => `${requests} per ${seconds} s`,
  keyRateDefault: 'server default',
  keyExpiresOptional: 'Expires (optional)',
  keyExpiresHint: 'In your local time. Empty: the key does not expire.',
  keyRateOptional: 'Rate limit (optional)',
  keyRateRequests: 'Requests',
  keyRateWindow: 'Window (seconds)',
  keyRateHint: "Its own limit: at most this many requests in each window. Empty: the server's default.",
  noKeys: 'No named keys yet.',
  newKeyOnce: (name: string) =>
    `The key for ${name}. Copy it now: you will not see it again (the server keeps only its hash).`,
  copy: 'Copy',
  copied: 'Copied',
  revokeKey: (name: string) => `Revoke ${name}`,
  revokeConfirm: (name: string) =>
    `Revoke the key ${name}? Every request with it is refused from now on; this cannot be undone.`,
  revokeYes: 'Revoke',
  revoked: (name: string) => `Revoked ${name}.`,
  rotateKey: (name: string) => `Rotate ${name}`,
  rotateGrace: 'The old key keeps working for',
  graceNone: 'no time: refused at once',
  graceHour: 'one hour',
  graceDay: 'one day',
  graceWeek: 'seven days',
  rotateYes: 'Rotate',
};
