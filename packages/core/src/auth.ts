import { timingSafeEqual } from 'node:crypto';
import { keyDigest } from './domain/api-key.ts';
import { grants, type RequiredScope, SCOPES, type Scope } from './domain/scopes.ts';
import { AppError, unauthorized } from './errors.ts';

/** The keys a request presented. undefined means "not sent"; any other value counts as sent. */
export interface Credentials {
  header: string | undefined;
  body: unknown;
}

/**
 * The key a request sent in its headers: `x-api-key`, or `Authorization: Bearer <key>`
 * (docs/keys-and-limits.md#named-keys-and-scopes). When both are sent they must be the same key; an
 * Authorization header of another scheme counts as a wrong key.
 */
export function headerKey(
  xApiKey: string | string[] | undefined,
  authorization: string | undefined,
): string | undefined {
  const direct = Array.isArray(xApiKey) ? xApiKey.join(',') : xApiKey;
  if (authorization === undefined) return direct;
  const m = /^Bearer +(\S+) *$/i.exec(authorization);
  // A malformed Authorization header is a wrong key, never "no key" (\u0000 matches no key).
  const bearer = m?.[1] ?? '\u0000';
  if (direct !== undefined && direct !== bearer) return '\u0000';
  return bearer;
}

/** The keys of a request: the header key (headerKey) and, in a JSON object body, `apiKey`. */
export function readCredentials(header: string | string[] | undefined, body: unknown): Credentials {
  const bodyKey =
    body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'apiKey')
      ? (body as { apiKey: unknown }).apiKey
      : undefined;
  return { header: Array.isArray(header) ? header.join(',') : header, body: bodyKey };
}

// The bootstrap key's digest, kept: a keyed request hashes only its own key, once.
let bootstrapDigest: { key: string; digest: Buffer } | undefined;
const digestOfBootstrap = (bootstrap: string) => {
  if (bootstrapDigest?.key !== bootstrap) bootstrapDigest = { key: bootstrap, digest: keyDigest(bootstrap) };
  return bootstrapDigest.digest;
};

/** Who a valid key is: the bootstrap key (id null) or a named key. */
export interface Principal {
  id: string | null;
  name: string;
  scopes: readonly Scope[];
  /** The key's own limit; null: the default (RATE_LIMIT_KEY_PER_MINUTE). */
  rateLimit: { requests: number; windowSeconds: number } | null;
  /** What the rate limit counts: the first key of its chain of rotations (absent: `id`). */
  lineage?: string;
}

/** Resolves a presented key to whom it belongs; null for an unknown, expired or revoked key. */
export interface KeyVerifier {
  verify(key: string): Promise<Principal | null>;
  /** `verify`'s answer when it is known without a lookup; undefined when it is not. */
  verifyKnown?(key: string): Principal | null | undefined;
  /** Forgets the keys it keeps, so that a revoke or rotation in this process applies at once. */
  forget?(): void;
}

/** The bootstrap key (WEBHOOK_API_KEY or the generated one): every scope. */
export const bootstrapPrincipal = (): Principal => ({
  id: null,
  name: 'bootstrap',
  scopes: [...SCOPES],
  rateLimit: null,
});

/**
 * Whether `key` is the bootstrap key. Digests of equal length make the comparison
 * constant-time whatever the lengths of the strings.
 */
export function isBootstrapKey(
  key: string,
  bootstrap: string | undefined,
  digestOfKey: Buffer = keyDigest(key),
): boolean {
  if (bootstrap === undefined || bootstrap === '') return false;
  return timingSafeEqual(digestOfKey, digestOfBootstrap(bootstrap));
}

/** A verifier that knows only the bootstrap key (tools, and transports without a key store). */
export function bootstrapVerifier(bootstrap: string | undefined): KeyVerifier {
  return {
    verify: async (key) => (isBootstrapKey(key, bootstrap) ? bootstrapPrincipal() : null),
  };
}

/**
 * The principal of a request: it sent at least one key, and every key it sent is valid and
 * the same key (when both are sent, both must match: docs/keys-and-limits.md#named-keys-and-scopes). Else
 * 401.
 */
export async function authenticate(credentials: Credentials, keys: KeyVerifier): Promise<Principal> {
  const sent = [credentials.header, credentials.body].filter((k) => k !== undefined);
  if (sent.length === 0) throw unauthorized();
  if (sent.some((k) => typeof k !== 'string' || k === '')) throw unauthorized();
  const [first, second] = sent as string[];
  if (second !== undefined && !timingSafeEqual(keyDigest(first as string), keyDigest(second)))
    throw unauthorized();
  const principal = await keys.verify(first as string);
  if (!principal) throw unauthorized();
  return principal;
}

/** 403 unless the principal may do what needs `scope` (docs/keys-and-limits.md#named-keys-and-scopes). */
export function requireScope(principal: Principal, scope: RequiredScope): void {
  if (!grants(principal.scopes, scope)) throw new AppError('FORBIDDEN', [`scope: this key lacks "${scope}"`]);
}
