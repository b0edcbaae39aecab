import { findLinkDuplicates, findNameDuplicates } from '@directory/db';
import { decodeCursor, duplicatesCursor, encodeCursor } from '../domain/cursor.ts';
import { keyedProcedure } from '../trpc.ts';
import { FindDuplicatesInput, FindDuplicatesOutput, findDuplicatesMeta } from './find-duplicates.types.ts';

export const findDuplicates = keyedProcedure
  .meta(findDuplicatesMeta)
  .input(FindDuplicatesInput)
  .output(FindDuplicatesOutput)
  .query(async ({ ctx, input }) => {
    const after = input.cursor === undefined ? undefined : decodeCursor(duplicatesCursor, input.cursor);
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
      nextCursor: groups.length > input.limit && last ? encodeCursor(duplicatesCursor, last) : null,
    };
  });
