import { AsyncLocalStorage } from 'node:async_hooks';
import {
  currentTransactionWrites,
  type Database,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  type OwnProjectChange,
  type Transaction,
} from '@directory/db';

/**
 * What a request committed, recorded by inTransaction while a request's store is active: the
 * transactions (their xids) and the project changes they wrote to the feed, and the projects
 * and tags an upsert wrote, as the read model indexes them (noteWrittenProjects). The read
 * model applies them before the request is answered (from the rows given, without reading
 * them back), and the response carries the position just after them (trpc.ts ownWrites).
 */
export interface RequestWrites {
  xids: string[];
  /** With the xid of the transaction that wrote each. */
  changes: (OwnProjectChange & { xid: string })[];
  projects: IndexedProjectRow[];
  tags: IndexedTagRow[];
  /** The tags its tag.updated changes name (a rename, a merge): re-read. */
  tagIds: string[];
  /** The rows noted by the transaction attempt running now: kept only if it commits. */
  attempt?: { projects: IndexedProjectRow[]; tags: IndexedTagRow[] } | undefined;
}

export const requestWrites = new AsyncLocalStorage<RequestWrites>();

export const newRequestWrites = (): RequestWrites => ({
  xids: [],
  changes: [],
  projects: [],
  tags: [],
  tagIds: [],
});

/**
 * Called by a write inside inTransaction with the projects (and their tags) as it wrote them:
 * they reach the read model if the transaction commits. Outside a request, nothing.
 */
export function noteWrittenProjects(projects: IndexedProjectRow[], tags: IndexedTagRow[]): void {
  const attempt = requestWrites.getStore()?.attempt;
  if (!attempt) return;
  attempt.projects.push(...projects);
  attempt.tags.push(...tags);
}

// serialization_failure, deadlock_detected, unique_violation: outcomes of a race that a
// fresh attempt resolves (it sees the other transaction's committed rows).
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const ATTEMPTS = 4;

/** Runs `fn` in a transaction, retrying it whole when it lost a race to another writer. */
export async function inTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const writes = requestWrites.getStore();
    const noted = { projects: [] as IndexedProjectRow[], tags: [] as IndexedTagRow[] };
    let own: Awaited<ReturnType<typeof currentTransactionWrites>> | undefined;
    try {
      if (writes) writes.attempt = noted;
      const result = await db.transaction().execute(async (trx) => {
        const result = await fn(trx);
        if (writes) own = await currentTransactionWrites(trx);
        return result;
      });
      if (writes && own?.xid) {
        writes.xids.push(own.xid);
        const xid = own.xid;
        for (const c of own.changes) writes.changes.push({ ...c, xid });
        writes.tagIds.push(...own.tagIds);
        writes.projects.push(...noted.projects);
        writes.tags.push(...noted.tags);
      }
      return result;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    } finally {
      if (writes?.attempt === noted) writes.attempt = undefined;
    }
  }
}
