import { findKeyById } from '@directory/db';
import { unauthorized } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { GetOwnKeyInput, GetOwnKeyOutput, getOwnKeyMeta } from './get-own-key.types.ts';
import { toKeyRecord } from './key.ts';

export const getOwnKey = keyedProcedure
  .meta(getOwnKeyMeta)
  .input(GetOwnKeyInput)
  .output(GetOwnKeyOutput)
  .query(async ({ ctx }) => {
    const { principal } = ctx;
    if (principal.id === null) {
      return {
        success: true as const,
        data: {
          id: null,
          name: principal.name,
          start: null,
          scopes: [...principal.scopes],
          createdAt: null,
          expiresAt: null,
          revokedAt: null,
          lastUsedAt: null,
          rateLimit: null,
        },
      };
    }
    const row = await findKeyById(ctx.db, principal.id);
    // revoked between the check and this read: the key is no longer valid
    if (!row) throw unauthorized();
    return { success: true as const, data: toKeyRecord(row) };
  });
