import {
  GIVE_UP_AFTER_MS,
  messageId,
  retryDelayMs,
  sendAttempt,
  signedHeaders,
  signingSecrets,
  webhookPayload,
} from '@directory/core/server';
import {
  type ClaimedDelivery,
  claimDeliveries,
  type Database,
  type Kysely,
  recordAttempts,
} from '@directory/db';
import type { ChangeSignal } from '../changes/signal.ts';
import { describeError, type Logger } from '../logger.ts';
import { createPoster } from './post.ts';

export interface DispatcherOptions {
  db: Kysely<Database>;
  signal: Pick<ChangeSignal, 'subscribe'>;
  logger: Logger;
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivateTargets: boolean;
  /** WEBHOOK_MAX_FAILURES: consecutive failures that disable a webhook. */
  maxFailures: number;
  /** WEBHOOK_TIMEOUT_MS: one attempt, connecting to the last byte of the answer. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the first retry's delay; each further one doubles (jittered, at most an hour). */
  retryBaseMs: number;
  /** How long a failing delivery is retried (default GIVE_UP_AFTER_MS, 24 h). */
  giveUpAfterMs?: number;
  /** Due deliveries are looked for at least this often (retries queued by other processes). */
  pollMs: number;
  /** Deliveries sent at once by this process. */
  batchSize?: number;
}

/**
 * Sends queued webhook deliveries, in every server process at once: each claims a batch with
 * SKIP LOCKED (claimDeliveries), sends it outside any transaction, and records each outcome.
 * Wakes when changes commit (the deliveries are queued by the same transaction), when a retry
 * it scheduled is due, and every `pollMs`.
 */
export function startDispatcher(options: DispatcherOptions): { stop(): Promise<void> } {
  const { db, logger, batchSize = 50 } = options;
  const leaseMs = options.timeoutMs + 5_000;
  const aborter = new AbortController();
  const poster = createPoster({
    allowPrivateTargets: options.allowPrivateTargets,
    timeoutMs: options.timeoutMs,
    maxSockets: batchSize,
    signal: aborter.signal,
  });
  let stopped = false;
  let wake: (() => void) | undefined;
  let pending = false;
  const poke = () => {
    pending = true;
    wake?.();
  };
  const unsubscribe = options.signal.subscribe(poke);
  const retryTimers = new Set<NodeJS.Timeout>();
  const scheduleWake = (ms: number) => {
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      poke();
    }, ms + 10);
    retryTimers.add(timer);
  };

  /**
   * Sends one delivery; its outcome, or undefined when the process is stopping (its lease runs out).
   * Never throws: a delivery that cannot be made or sent, whatever the error, is a failed attempt of its
   * webhook only (docs/changes-and-webhooks.md#webhooks--key).
   */
  async function deliver(d: ClaimedDelivery) {
    const outcome = await sendAttempt(
      d.url,
      () => {
        const body = JSON.stringify(webhookPayload({ ...d, id: d.changeId }));
        const now = new Date();
        return { body, headers: signedHeaders(signingSecrets(d, now), messageId(d.changeId), body, now) };
      },
      poster.post,
    );
    // shutting down: the lease runs out, another attempt follows
    if (!outcome.answered && aborter.signal.aborted) return undefined;
    const { answered: _, ...attempt } = outcome;
    return { delivery: d, ...attempt, retryInMs: retryDelayMs(d.attempt, options.retryBaseMs) };
  }

  /** Sends a claimed batch at once, then records every outcome in one statement. */
  async function deliverAll(claimed: ClaimedDelivery[]): Promise<void> {
    const results = (await Promise.all(claimed.map(deliver))).filter((r) => r !== undefined);
    try {
      const disabled = await recordAttempts(db, results, {
        giveUpAfterMs: options.giveUpAfterMs ?? GIVE_UP_AFTER_MS,
        maxFailures: options.maxFailures,
      });
      const retries = results.filter((r) => !r.success).map((r) => r.retryInMs);
      if (retries.length > 0) scheduleWake(Math.min(...retries));
      for (const webhookId of disabled)
        logger.warn({ webhookId, failures: options.maxFailures }, 'webhook disabled after failures');
    } catch (err) {
      logger.warn({ error: describeError(err) }, 'webhook: cannot record deliveries');
    }
  }

  const loop = (async () => {
    while (!stopped) {
      pending = false;
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await claimDeliveries(db, batchSize, leaseMs);
      } catch (err) {
        if (!stopped) logger.warn({ error: describeError(err) }, 'webhook: cannot claim deliveries');
      }
      if (claimed.length > 0) {
        try {
          await deliverAll(claimed);
        } catch (err) {
          // never the end of the dispatcher: the claimed deliveries are due again when their lease runs out
          logger.warn({ error: describeError(err) }, 'webhook: cannot deliver');
        }
        continue;
      }
      if (pending || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.pollMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    }
  })();

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      for (const t of retryTimers) clearTimeout(t);
      wake?.();
      // Sends in flight get a moment to finish and be recorded; the rest are abandoned to their lease.
      const grace = setTimeout(() => aborter.abort(), 1_000);
      await loop;
      clearTimeout(grace);
      poster.destroy();
    },
  };
}
