import { isDatabaseUnavailable } from '@directory/db';
import type { RevisionContext } from '../domain/revision-context.ts';
import { AppError } from '../errors.ts';
import type { ProjectInput } from '../schemas/project.ts';
import { inTransaction, type TransactionTarget } from '../transaction.ts';
import { type UpsertResult, upsertInOrder, upsertProject } from './upsert.ts';

export type ItemError = { index: number; name: string; error: string };

/** A failure that is not any one item's fault fails the whole request. */
const failsRequest = (err: unknown) => err instanceof AppError || isDatabaseUnavailable(err);

/**
 * Endpoint 1's write of the valid items: the whole batch in one transaction, set-based. Should
 * that fail, the items are written again one by one, each in its own transaction (one
 * failing item does not undo the others: docs/api.md#slugs-identity-ids-and-order), so that only the
 * failing item fails. Returns what was written per item (undefined: failed) and the errors of the failed
 * ones.
 */
export async function upsertBatch(
  target: TransactionTarget,
  items: readonly { index: number; project: ProjectInput }[],
  how: RevisionContext,
  reportError: (err: unknown) => string,
): Promise<{ written: (UpsertResult | undefined)[]; errors: ItemError[] }> {
  try {
    const { results, rows } = await inTransaction(target, (trx) =>
      upsertInOrder(
        trx,
        items.map((v) => v.project),
        how,
      ),
    );
    // committed: the read model of this process gets the rows as written (transaction.ts)
    target.writes?.wrote(rows);
    return { written: results, errors: [] };
  } catch (err) {
    if (failsRequest(err)) throw err;
    // Logged: the set-based write is expected to succeed whenever the items one by one do.
    reportError(err);
  }
  const written: (UpsertResult | undefined)[] = [];
  const errors: ItemError[] = [];
  for (const { index, project } of items) {
    try {
      const { result, rows } = await inTransaction(target, (trx) => upsertProject(trx, project, how));
      target.writes?.wrote(rows);
      written.push(result);
    } catch (err) {
      if (failsRequest(err)) throw err;
      written.push(undefined);
      errors.push({
        index,
        name: project.name,
        error: `Internal error while saving this item (reference ${reportError(err)})`,
      });
    }
  }
  return { written, errors };
}
