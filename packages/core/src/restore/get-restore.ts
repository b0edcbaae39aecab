import { directoryContents, findRestore } from '@directory/db';
import { iso, isoOrNull } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import { GetRestoreInput, GetRestoreOutput, getRestoreMeta } from './get-restore.types.ts';

/** The restore's state (docs/operating.md#restore-from-an-export): where a stopped one resumes. */
export const getRestore = keyedProcedure
  .meta(getRestoreMeta)
  .input(GetRestoreInput)
  .output(GetRestoreOutput)
  .query(async ({ ctx }) => {
    const [row, contents] = await Promise.all([findRestore(ctx.db), directoryContents(ctx.db)]);
    return {
      success: true as const,
      data: {
        state: !row ? ('none' as const) : row.finishedAt ? ('finished' as const) : ('unfinished' as const),
        restore: row
          ? {
              asOf: iso(row.asOf),
              cursor: row.cursor,
              expected: row.expected,
              received: row.received,
              lastId: row.lastId,
              startedAt: iso(row.startedAt),
              updatedAt: iso(row.updatedAt),
              finishedAt: isoOrNull(row.finishedAt),
            }
          : null,
        contents,
      },
    };
  });
