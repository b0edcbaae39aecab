import { insertKey } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { keyHash, keyStart, newApiKey } from '../domain/api-key.ts';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { CreateKeyInput, CreateKeyOutput, createKeyMeta } from './create-key.types.ts';
import { toNewKey } from './key.ts';

export const createKey = keyedProcedure
  .meta(createKeyMeta)
  .input(CreateKeyInput)
  .output(CreateKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= Date.now())
      throw new AppError('VALIDATION', ['expiresAt: Must be in the future']);
    const key = newApiKey();
    const row = await insertKey(ctx.db, {
      id: createId(),
      name: input.name,
      hash: keyHash(key),
      start: keyStart(key),
      scopes: [...new Set(input.scopes)],
      expiresAt,
      rateLimit: input.rateLimit ?? null,
    });
    return { success: true as const, data: toNewKey(row, key) };
  });
