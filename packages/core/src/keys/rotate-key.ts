import { endKey, findKeyById, insertKey } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { keyHash, keyStart, newApiKey } from '../domain/api-key.ts';
import { AppError } from '../errors.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { toNewKey } from './key.ts';
import { RotateKeyInput, RotateKeyOutput, rotateKeyMeta } from './rotate-key.types.ts';

export const rotateKey = keyedProcedure
  .meta(rotateKeyMeta)
  .input(RotateKeyInput)
  .output(RotateKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const key = newApiKey();
    const row = await inTransaction(ctx, async (trx) => {
      // ends the old key (row-locked: two rotations of one key run one after the other)
      const ended = await endKey(trx, input.id, input.graceSeconds ?? 0);
      if (!ended) throw new AppError('NOT_FOUND', [`Key not found: ${input.id}`]);
      const old = ended.row;
      const expired = old.expires_at !== null && old.expires_at.getTime() <= Date.now();
      if (ended.alreadyEnded || expired)
        throw new AppError('CONFLICT', [
          `id: Key ${input.id} is revoked or expired; create a new key instead`,
        ]);
      const current = await findKeyById(trx, old.id);
      if (!current) throw new AppError('NOT_FOUND', [`Key not found: ${input.id}`]);
      return insertKey(trx, {
        id: createId(),
        name: current.name,
        hash: keyHash(key),
        start: keyStart(key),
        scopes: current.scopes,
        expiresAt: current.expires_at,
        // the rate limit counts the new key as the old one (docs/keys-and-limits.md#rate-limiting)
        lineage: current.lineage,
        rateLimit:
          current.rate_limit_requests !== null && current.rate_limit_window_seconds !== null
            ? { requests: current.rate_limit_requests, windowSeconds: current.rate_limit_window_seconds }
            : null,
      });
    });
    ctx.keys?.forget?.();
    return { success: true as const, data: toNewKey(row, key) };
  });
