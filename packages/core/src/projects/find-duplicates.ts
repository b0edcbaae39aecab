import { type DuplicateGroup, findLinkDuplicates, findNameDuplicates } from '@directory/db';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import { FindDuplicatesInput, FindDuplicatesOutput, findDuplicatesMeta } from './find-duplicates.types.ts';

type Position = { reason: DuplicateGroup['reason']; key: string };

// "d1.<reason>.<key>" in base64url: opaque to clients, versioned for us.
const encodeCursor = (p: Position) => Buffer.from(`d1.${p.reason}.${p.key}`).toString('base64url');

function decodeCursor(cursor: string): Position {
  const m = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? /^d1\.(link|name)\.(.+)$/s.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    : null;
  if (!m)
    throw new AppError('VALIDATION', [
      'cursor: Invalid cursor; pass back a nextCursor returned by this endpoint',
    ]);
  return { reason: m[1] as Position['reason'], key: m[2]! };
}

export const findDuplicates = keyedProcedure
  .meta(findDuplicatesMeta)
  .input(FindDuplicatesInput)
  .output(FindDuplicatesOutput)
  .query(async ({ ctx, input }) => {
    const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    // One more than a page: whether there is a next one.
    const wanted = input.limit + 1;
    const groups = after?.reason === 'name' ? [] : await findLinkDuplicates(ctx.db, after?.key, wanted);
    if (groups.length < wanted) {
      const afterName = after?.reason === 'name' ? after.key : undefined;
      groups.push(...(await findNameDuplicates(ctx.db, afterName, wanted - groups.length)));
    }
    const page = groups.slice(0, input.limit);
    const last = page.at(-1);
    return {
      success: true as const,
      groups: page,
      nextCursor: groups.length > input.limit && last ? encodeCursor(last) : null,
    };
  });
