import {
  advanceRestore,
  type DirectoryContents,
  directoryContents,
  findRestore,
  findRestoreClashes,
  insertRestoredProjects,
  insertRevisions,
  lockRestore,
  type RestoreRow,
  startRestore,
} from '@directory/db';
import { actorOf } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import { iso } from '../schemas/common.ts';
import { checkLines, clashProblems, MAX_LINE_DETAILS, projectOfRow } from '../services/restore-lines.ts';
import { revisionOfBody } from '../services/revisions.ts';
import { inTransaction } from '../transaction.ts';
import { keyedProcedure } from '../trpc.ts';
import { RestoreBatchInput, RestoreBatchOutput, restoreBatchMeta } from './restore-batch.types.ts';
import type { RestoreHeader } from './restore-line.types.ts';

const invalid = (problems: string[]) => new AppError('VALIDATION', problems.slice(0, MAX_LINE_DETAILS));

const holds = (c: DirectoryContents) =>
  `${c.projects} projects, ${c.deleted} deleted or merged projects (their history), ${c.aliases} aliases and ${c.tags} tags`;

/**
 * Whether the batch may go on the restore as it stands: the first batch of a restore needs an
 * empty directory, a later one the same export; a finished restore takes none.
 */
async function checkState(
  trx: Parameters<typeof directoryContents>[0],
  state: RestoreRow | undefined,
  header: RestoreHeader,
  firstLine: number,
  start: boolean,
): Promise<void> {
  if (!state) {
    const contents = await directoryContents(trx);
    if (Object.values(contents).some((n) => n > 0))
      throw new AppError('CONFLICT', [
        `The directory is not empty: it holds ${holds(contents)}; a restore goes only into an empty directory`,
      ]);
    if (start && firstLine !== 2)
      throw new AppError('CONFLICT', [
        `No restore has started: the first batch starts at line 2, not ${firstLine}`,
      ]);
    if (start) await startRestore(trx, { asOf: header.asOf, cursor: header.cursor, expected: header.count });
    return;
  }
  const of = `the export as of ${iso(state.asOf)} (${state.received} of ${state.expected} projects)`;
  if (state.finishedAt)
    throw new AppError('CONFLICT', [
      `The directory was restored from ${of} at ${iso(state.finishedAt)}; a restore goes only into an empty directory`,
    ]);
  if (
    iso(state.asOf) !== new Date(header.asOf).toISOString() ||
    state.cursor !== header.cursor ||
    state.expected !== header.count
  )
    throw new AppError('CONFLICT', [
      `A restore of another export is unfinished: ${of}; only that export can resume it`,
    ]);
}

/** One batch of a restore, in one transaction (docs/operating.md#restore-from-an-export). */
export const restoreBatch = keyedProcedure
  .meta(restoreBatchMeta)
  .input(RestoreBatchInput)
  .output(RestoreBatchOutput)
  .mutation(async ({ ctx, input }) => {
    const actor = actorOf(ctx);
    const { header, firstLine } = input;
    const first = checkLines(input.projects, firstLine, null);
    if (first.problems.length > 0) throw invalid(first.problems);
    if (input.check === true) {
      const state = await findRestore(ctx.db);
      await checkState(ctx.db, state, header, firstLine, false);
      const progress = { received: state?.received ?? 0, lastId: state?.lastId ?? null };
      return {
        success: true as const,
        data: {
          restored: 0,
          ...progress,
          expected: header.count,
          finished: false,
          checked: first.lines.length,
        },
      };
    }
    return inTransaction(ctx, async (trx) => {
      const state = await lockRestore(trx);
      await checkState(trx, state, header, firstLine, true);
      const { lines, problems } = checkLines(input.projects, firstLine, state?.lastId ?? null);
      if (problems.length > 0)
        throw new AppError('CONFLICT', [
          ...problems.slice(0, MAX_LINE_DETAILS),
          `The restore has ${state?.received ?? 0} projects up to "${state?.lastId}": resume after it (GET /api/restore)`,
        ]);
      const rows = lines.map((l) => l.row);
      const clashes = clashProblems(lines, await findRestoreClashes(trx, rows));
      if (clashes.length > 0) throw invalid(clashes);
      const received = (state?.received ?? 0) + rows.length;
      if (received > header.count)
        throw invalid([
          `line ${firstLine + header.count - (state?.received ?? 0)}: The header counts ${header.count} projects; this is one more`,
        ]);
      await insertRestoredProjects(trx, rows);
      const summary = `restored from the export as of ${header.asOf}`;
      await insertRevisions(
        trx,
        rows.map((row) => {
          const revision = revisionOfBody(projectOfRow(row), 'created', { via: 'import-restore', actor });
          return { ...revision, summary: revision.summary ?? summary };
        }),
      );
      const finished = input.done === true;
      if (finished) {
        if (received !== header.count)
          throw invalid([`The header counts ${header.count} projects; ${received} came`]);
        const contents = await directoryContents(trx);
        if (contents.projects !== received)
          throw new AppError('CONFLICT', [
            `The directory holds ${contents.projects} projects, the export ${received}: something else wrote to it during the restore`,
          ]);
      }
      const lastId = rows.at(-1)?.id ?? state?.lastId ?? null;
      await advanceRestore(trx, { received: rows.length, lastId: rows.at(-1)?.id ?? null, finished });
      return {
        success: true as const,
        data: {
          restored: rows.length,
          received,
          expected: header.count,
          lastId,
          finished,
          checked: rows.length,
        },
      };
    });
  });
