import { endKey } from '@directory/db';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { toKeyRecord } from './key.ts';
import { RevokeKeyInput, RevokeKeyOutput, revokeKeyMeta } from './revoke-key.types.ts';

export const revokeKey = keyedProcedure
  .meta(revokeKeyMeta)
  .input(RevokeKeyInput)
  .output(RevokeKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const ended = await endKey(ctx.db, input.id, 0);
    if (!ended) throw new AppError('NOT_FOUND', [`Key not found: ${input.id}`]);
    // this process refuses it at once; the others within their cache's time (KEY_CACHE_MS)
    ctx.keys?.forget?.();
    return { success: true as const, data: toKeyRecord(ended.row) };
  });
