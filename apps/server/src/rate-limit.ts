import { isIP } from 'node:net';
import { ipv6Bytes, type Principal } from '@directory/core/server';
import type pg from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';

/** The limits of docs/keys-and-limits.md#rate-limiting; 0 is no limit. */
export interface RateLimitConfig {
  /** The window of the two defaults (60 s; RATE_LIMIT_WINDOW_MS). */
  windowMs: number;
  /** Requests per window per client address without a key (RATE_LIMIT_ANON_PER_MINUTE). */
  perAddress: number;
  /** Requests per window per key without a limit of its own (RATE_LIMIT_KEY_PER_MINUTE). */
  perKey: number;
  /**
   * The processes that share the counts (WEB_CONCURRENCY; 1 when absent): while the database
   * cannot answer, each counts on its own at this share of every limit.
   */
  processes?: number;
}

/** Who a request is counted as, and its limit. */
export interface Policy {
  /** The policy's name in the RateLimit headers: "key" or "anon". */
  name: 'key' | 'anon';
  /** What is counted: a key's id (or "bootstrap"), or a client address. */
  subject: string;
  requests: number;
  windowSeconds: number;
}

export interface Outcome {
  allowed: boolean;
  /** Requests left in this window (as far as this process knows). */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/**
 * On PostgreSQL a process takes requests from the shared count in leases of this fraction of
 * the limit (at least 1): one statement per lease, not per request. What a lease takes is
 * counted in the database at once, so N processes never admit more than the limit; the error
 * is the other way: up to (N − 1) × (lease − 1) requests of a window may sit unused in other
 * processes when a client is refused (with 20, under 5 % of the limit per other process).
 */
export const LEASE_DIVISOR = 20;

/**
 * How long a request waits on the shared count (docs/keys-and-limits.md#while-the-database-is-away):
 * past it, the lease is taken from this process's own count at its share of the limit.
 */
export const STORE_TIMEOUT_MS = 100;

/** The answers of the per-process counts (the insurance limiters), told from the database's. */
const ownAnswers = new WeakSet<object>();

/** A process's own count, standing in for the shared one; marks its answers (`ownAnswers`). */
class OwnShare extends RateLimiterMemory {
  override async consume(key: string | number, points?: number, options?: object): Promise<RateLimiterRes> {
    try {
      const res = await super.consume(key, points, options);
      ownAnswers.add(res);
      return res;
    } catch (err) {
      if (err instanceof RateLimiterRes) ownAnswers.add(err);
      throw err;
    }
  }
}

const idOf = (policy: Policy) =>
  `${policy.name}:${policy.requests}/${policy.windowSeconds}:${policy.subject}`;

interface Bucket {
  tokens: number;
  /** The shared count's remaining requests when the lease was taken. */
  sharedRemaining: number;
  resetAt: number;
}

/**
 * Counts of requests per key and per address (docs/keys-and-limits.md#rate-limiting), by
 * rate-limiter-flexible: in the database on PostgreSQL (RateLimiterPostgres: one upsert per lease, in the
 * table rate_limits of migration 2026_11_26_000900), in the process on PGlite (RateLimiterMemory).
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly buckets = new Map<string, Bucket>();
  /** The lease being taken, per bucket: requests that find their bucket empty wait for it. */
  private readonly leasing = new Map<string, Promise<boolean>>();
  private readonly pool: pg.Pool | undefined;
  readonly config: RateLimitConfig;
  private readonly warn: (message: string, err: unknown) => void;

  constructor(options: {
    config: RateLimitConfig;
    /** PostgreSQL's pool: the counts are shared. Absent: counted in this process. */
    pool?: pg.Pool | undefined;
    warn?: (message: string, err: unknown) => void;
  }) {
    this.config = options.config;
    this.pool = options.pool;
    this.warn = options.warn ?? (() => {});
  }

  /** The policy of a request: its key's (own limit, else the default), else its address's. */
  policyOf(principal: Principal | null | undefined, address: string): Policy | undefined {
    const windowSeconds = Math.max(1, Math.round(this.config.windowMs / 1000));
    if (principal) {
      const own = principal.rateLimit;
      // a rotated key is counted as the key it replaced (its lineage)
      const subject = principal.lineage ?? principal.id ?? 'bootstrap';
      if (own) return { name: 'key', subject, ...own };
      if (this.config.perKey <= 0) return undefined;
      return {
        name: 'key',
        subject,
        requests: this.config.perKey,
        windowSeconds,
      };
    }
    if (this.config.perAddress <= 0) return undefined;
    return {
      name: 'anon',
      subject: countedAddress(address),
      requests: this.config.perAddress,
      windowSeconds,
    };
  }

  /**
   * Takes `n` requests from the policy's budget: from this process's lease while it lasts, else
   * from a new lease. Requests that arrive while a lease is being taken wait for it and share it
   * (one lease in flight per key and process): a lease each would spend the window's count on
   * the first requests of a burst and refuse the rest.
   */
  async take(policy: Policy, n: number): Promise<Outcome> {
    const id = idOf(policy);
    for (;;) {
      // from the lease at hand, or refused with the window's count spent
      const known = this.takeNow(policy, n);
      if (known) return known;
      const bucket = this.buckets.get(id);
      if (bucket && bucket.resetAt <= Date.now()) this.buckets.delete(id);
      const inFlight = this.leasing.get(id);
      if (inFlight) {
        await inFlight;
        continue;
      }
      const have = this.buckets.get(id)?.tokens ?? 0;
      const lease = this.pool ? Math.max(n - have, Math.floor(policy.requests / LEASE_DIVISOR), 1) : n - have;
      const leasing = this.lease(id, policy, lease);
      this.leasing.set(id, leasing);
      let unreachable: boolean;
      try {
        unreachable = await leasing;
      } finally {
        this.leasing.delete(id);
      }
      // Not even this process's own count answered (never expected): the request goes on.
      if (unreachable)
        return { allowed: true, remaining: policy.requests, resetSeconds: policy.windowSeconds };
      const after = this.buckets.get(id)!;
      if (after.tokens < n) return this.outcome(false, after, Date.now());
      after.tokens -= n;
      return this.outcome(true, after, Date.now());
    }
  }

  /**
   * `take` without a promise when this process's lease answers (enough left, or the window's
   * count spent); undefined when a lease must be taken (then `take`).
   */
  takeNow(policy: Policy, n: number): Outcome | undefined {
    const now = Date.now();
    const bucket = this.buckets.get(idOf(policy));
    if (!bucket || bucket.resetAt <= now) return undefined;
    if (bucket.tokens >= n) {
      bucket.tokens -= n;
      return this.outcome(true, bucket, now);
    }
    return bucket.sharedRemaining <= 0 ? this.outcome(false, bucket, now) : undefined;
  }

  /** Takes a lease from the count into this process's bucket; true when the count cannot be reached. */
  private async lease(id: string, policy: Policy, lease: number): Promise<boolean> {
    let res: RateLimiterRes;
    try {
      res = await this.limiter(policy).consume(id, lease);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        this.warn('cannot count a request against its rate limit', err);
        return true;
      }
      res = err;
    }
    // A lease that went over the limit was granted only the part within it (of this process's
    // share, when its own count answered).
    const points = ownAnswers.has(res) ? this.share(policy) : policy.requests;
    const granted = Math.max(0, Math.min(lease, lease - (res.consumedPoints - points)));
    const now = Date.now();
    const current = this.buckets.get(id);
    this.buckets.set(id, {
      tokens: (current && current.resetAt > now ? current.tokens : 0) + granted,
      sharedRemaining: res.remainingPoints,
      resetAt: now + Math.max(0, res.msBeforeNext),
    });
    if (this.buckets.size > 100_000) this.sweep(now);
    return false;
  }

  private outcome(allowed: boolean, bucket: Bucket, now: number): Outcome {
    return {
      allowed,
      remaining: bucket.sharedRemaining + bucket.tokens,
      resetSeconds: Math.max(1, Math.ceil((bucket.resetAt - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const [id, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(id);
  }

  /** This process's share of a policy's limit, while the shared count cannot answer (at least 1). */
  share(policy: Policy): number {
    return Math.max(1, Math.floor(policy.requests / Math.max(1, this.config.processes ?? 1)));
  }

  private limiter(policy: Policy): RateLimiterAbstract {
    const name = `${policy.requests}/${policy.windowSeconds}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const options = { points: policy.requests, duration: policy.windowSeconds, keyPrefix: 'directory' };
      // On PostgreSQL: the shared count, given STORE_TIMEOUT_MS to answer; when it does not (or
      // fails), this process's own count at its share of the limit answers instead.
      limiter = this.pool
        ? new RLWrapperTimeouts({
            limiter: new RateLimiterPostgres({
              ...options,
              storeClient: this.pool,
              storeType: 'pool',
              tableName: 'rate_limits',
              tableCreated: true,
              // the first limiter of the process clears expired counts (every 5 minutes)
              clearExpiredByTimeout: this.limiters.size === 0,
            }),
            timeoutMs: STORE_TIMEOUT_MS,
            insuranceLimiter: new OwnShare({ ...options, points: this.share(policy) }),
          })
        : new RateLimiterMemory(options);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

/**
 * What a client address is counted as (docs/keys-and-limits.md#the-client-address): an IPv4
 * address as itself (also when written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64
 * (one site's network: a client holds the whole of it and may use any address in it).
 */
export function countedAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const b = ipv6Bytes(address);
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  const words = [0, 2, 4, 6].map((i) => ((b[i]! << 8) | b[i + 1]!).toString(16));
  return `${words.join(':')}::/64`;
}

/** The IETF headers (draft-ietf-httpapi-ratelimit-headers) of a counted request. */
export function rateLimitHeaders(policy: Policy, outcome: Outcome): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy.name}";q=${policy.requests};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, outcome.remaining)};t=${outcome.resetSeconds}`,
  };
}
