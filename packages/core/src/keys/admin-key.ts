import { type Database, ensureAdminKey, type Kysely } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { keyHash, keyStart, newApiKey } from '../domain/api-key.ts';
import { SCOPES } from '../domain/scopes.ts';

/**
 * docs/keys-and-limits.md#the-bootstrap-key: when the database has no valid key with keys:admin, creates
 * the key `admin` with every scope and returns it (to be printed once); else undefined. Processes starting
 * at once agree on one key (db ensureAdminKey holds a lock).
 */
export async function createAdminKeyIfNone(db: Kysely<Database>): Promise<string | undefined> {
  const key = newApiKey();
  const created = await ensureAdminKey(db, {
    id: createId(),
    name: 'admin',
    hash: keyHash(key),
    start: keyStart(key),
    scopes: SCOPES,
    expiresAt: null,
    rateLimit: null,
  });
  return created ? key : undefined;
}
