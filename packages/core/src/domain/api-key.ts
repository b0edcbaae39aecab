import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';

/**
 * Every named key starts so (docs/keys-and-limits.md#named-keys-and-scopes), for secret scanners to
 * recognise.
 */
export const KEY_PREFIX = 'dir_';
/** Random bytes of a key (G: at least 32). */
const KEY_BYTES = 32;
/** How many characters of a key are kept for display (`start`). */
export const KEY_START_LENGTH = 12;

/** A new named key: `dir_` and 32 random bytes in base58 (about 44 characters). */
export function newApiKey(): string {
  return KEY_PREFIX + bs58.encode(randomBytes(KEY_BYTES));
}

/** What is stored of a key: its SHA-256, hex. */
/** A key's SHA-256: what is stored (as hex, `keyHash`) and what keys are compared by. */
export const keyDigest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export const keyHash = (key: string): string => keyDigest(key).toString('hex');

/** The first characters of a key, shown to tell keys apart. */
export const keyStart = (key: string): string => key.slice(0, KEY_START_LENGTH);

/** Whether a string could be a named key at all (saves a lookup for anything else). */
export const looksLikeNamedKey = (key: string): boolean =>
  key.startsWith(KEY_PREFIX) && key.length >= 40 && key.length <= 64;
