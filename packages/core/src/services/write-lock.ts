import {
  type Database,
  findProjectDetailsByIds,
  findProjectIdBySlug,
  type Kysely,
  writeProjectLock,
} from '@directory/db';
import { projectNotFound } from '../projects/get-project.ts';
import { LOCK_FIELDS, type LockField, type Project, toProject } from '../schemas/project.ts';
import { missingProject } from './aliases.ts';
import { recordRevisions } from './revisions.ts';

/**
 * Sets (or, with null, clears) a project's lock in the caller's transaction, and stores the
 * revision (via "lock") when it changed anything. The row is locked before it is compared.
 */
export async function writeLock(
  trx: Kysely<Database>,
  slug: string,
  lock: { fields: readonly LockField[]; reason: string | null } | null,
  actor: string | null,
): Promise<{ project: Project; revision: number | null }> {
  const id = await findProjectIdBySlug(trx, slug);
  const [current] = id === undefined ? [] : await findProjectDetailsByIds(trx, [id], true);
  if (!current) throw await missingProject(trx, slug, 'write', projectNotFound(slug));
  const fields = lock && LOCK_FIELDS.filter((f) => lock.fields.includes(f));
  const same =
    lock === null
      ? current.lock_fields === null
      : current.lock_fields !== null &&
        JSON.stringify(LOCK_FIELDS.filter((f) => current.lock_fields!.includes(f))) ===
          JSON.stringify(fields) &&
        current.lock_reason === lock.reason;
  if (same) return { project: toProject(current), revision: null };
  await writeProjectLock(trx, current.id, lock && { fields: fields!, reason: lock.reason });
  const numbers = await recordRevisions(trx, [{ projectId: current.id, action: 'updated' }], {
    via: 'lock',
    actor,
  });
  const [after] = await findProjectDetailsByIds(trx, [current.id]);
  return { project: toProject(after!), revision: numbers.get(current.id) ?? null };
}
