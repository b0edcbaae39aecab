import { type Database, findKeyByHash, type KeyRow, type Kysely, touchKeys } from '@directory/db';
import { bootstrapPrincipal, isBootstrapKey, type KeyVerifier, type Principal } from '../auth.ts';
import { keyDigest, looksLikeNamedKey } from '../domain/api-key.ts';
import { isScope } from '../domain/scopes.ts';

/**
 * A revoked key is refused by every process within 1 s. A process keeps what it
 * looked up for at most this long, so a revoke elsewhere reaches it in this time plus one lookup.
 */
export const KEY_CACHE_MS = 500;
/** lastUsedAt is written at most once per this long per key and process. */
export const TOUCH_INTERVAL_MS = 60_000;
/** Lookups kept at most (an unknown key is kept too, so that repeating one costs no query). */
const CACHE_ENTRIES = 10_000;

interface Entry {
  principal: Principal | null;
  /** Local time until which this entry may be used. */
  freshUntil: number;
  /** Local time at which the key ends (revoked or expired); Infinity: no end known. */
  endsAt: number;
}

export function principalOf(row: KeyRow): Principal {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter(isScope),
    lineage: row.lineage,
    rateLimit:
      row.rate_limit_requests !== null && row.rate_limit_window_seconds !== null
        ? { requests: row.rate_limit_requests, windowSeconds: row.rate_limit_window_seconds }
        : null,
  };
}

/**
 * The keys of one process: the bootstrap key (compared in constant time) and the named keys,
 * each looked up by the unique index on its hash and kept for KEY_CACHE_MS.
 */
export class KeyStore implements KeyVerifier {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly touched = new Map<string, number>();
  private readonly db: Kysely<Database>;
  private readonly bootstrap: string | undefined;
  private readonly warn: (message: string, err: unknown) => void;
  private readonly looked = { found: 0, unknown: 0 };

  constructor(options: {
    db: Kysely<Database>;
    /** WEBHOOK_API_KEY or the generated key; undefined: none (PostgreSQL with an admin key). */
    bootstrap: string | undefined;
    warn?: (message: string, err: unknown) => void;
  }) {
    this.db = options.db;
    this.bootstrap = options.bootstrap;
    this.warn = options.warn ?? (() => {});
  }

  async verify(key: string): Promise<Principal | null> {
    const digest = keyDigest(key);
    const known = this.known(key, digest);
    if (known !== undefined) return known;
    return this.principalOf(await this.lookUp(digest.toString('hex')));
  }

  /**
   * What `verify` answers when it needs no lookup (the bootstrap key, a key not of the named
   * form, a key whose lookup is still fresh); undefined when it does. A keyed request then
   * pays no promise for its key (request-gate.ts).
   */
  verifyKnown(key: string): Principal | null | undefined {
    return this.known(key, keyDigest(key));
  }

  private known(key: string, digest: Buffer): Principal | null | undefined {
    if (isBootstrapKey(key, this.bootstrap, digest)) return bootstrapPrincipal();
    if (!looksLikeNamedKey(key)) return null;
    const entry = this.cache.get(digest.toString('hex'));
    return entry && entry.freshUntil > Date.now() ? this.principalOf(entry) : undefined;
  }

  private principalOf(entry: Entry): Principal | null {
    if (!entry.principal || entry.endsAt <= Date.now()) return null;
    this.touch(entry.principal.id as string);
    return entry.principal;
  }

  /** How many keys this process has looked up in the database since it started, by what it found. */
  lookups(): { found: number; unknown: number } {
    return { ...this.looked };
  }

  /** Forgets what this process knows of keys (a revoke in this process applies at once). */
  forget(): void {
    this.cache.clear();
  }

  private lookUp(hash: string): Promise<Entry> {
    const inFlight = this.pending.get(hash);
    if (inFlight) return inFlight;
    const started = Date.now();
    const lookup = findKeyByHash(this.db, hash)
      .then((row): Entry => {
        this.looked[row ? 'found' : 'unknown']++;
        const entry: Entry = {
          principal: row ? principalOf(row) : null,
          freshUntil: started + KEY_CACHE_MS,
          endsAt: row?.valid_ms == null ? Infinity : started + row.valid_ms,
        };
        if (this.cache.size >= CACHE_ENTRIES) {
          const oldest = this.cache.keys().next().value;
          if (oldest !== undefined) this.cache.delete(oldest);
        }
        this.cache.delete(hash);
        this.cache.set(hash, entry);
        return entry;
      })
      .finally(() => this.pending.delete(hash));
    this.pending.set(hash, lookup);
    return lookup;
  }

  private touch(id: string): void {
    const now = Date.now();
    const last = this.touched.get(id);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(id, now);
    touchKeys(this.db, [id]).catch((err) => this.warn('cannot record when a key was last used', err));
  }
}
