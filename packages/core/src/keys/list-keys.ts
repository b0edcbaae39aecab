import { listKeys as readKeys } from '@directory/db';
import { decodeCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { keyedProcedure } from '../trpc.ts';
import { toKeyRecord } from './key.ts';
import { ListKeysInput, ListKeysOutput, listKeysMeta } from './list-keys.types.ts';

const QUERY = { keys: 1 };

export const listKeys = keyedProcedure
  .meta(listKeysMeta)
  .input(ListKeysInput)
  .output(ListKeysOutput)
  .query(async ({ ctx, input }) => {
    // The cursor is the last key's exact creation time (microseconds, as text) and id, signed.
    const after =
      input.cursor === undefined
        ? undefined
        : decodeCursor(pageCursor, input.cursor, { secret: ctx.apiKey, query: QUERY });
    const rows = await readKeys(ctx.db, {
      after: after && { createdKey: String(after.key), id: after.id },
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      success: true as const,
      data: page.map(toKeyRecord),
      nextCursor:
        rows.length > input.limit && last
          ? encodeCursor(
              pageCursor,
              { key: last.created_key, id: last.id },
              { secret: ctx.apiKey, query: QUERY },
            )
          : null,
    };
  });
