import {
  currentTransactionWrites,
  type Database,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  type OwnProjectChange,
  type Transaction,
} from '@directory/db';

/** The projects (and their tags) a write wrote, as the read model indexes them (services/upsert.ts). */
export interface WrittenRows {
  projects: IndexedProjectRow[];
  tags: IndexedTagRow[];
}

/**
 * What a request committed: the transactions (their xids) and the project changes they wrote
 * to the feed, recorded by inTransaction when it is given the record; and the projects and
 * tags an upsert wrote, as the read model indexes them, which the upsert returns and its caller
 * adds once its transaction committed (`wrote`). trpc.ts's ownWrites makes one per write
 * request and hands it to the procedure in its context (`ctx.writes`); the read model applies
 * it before the request is answered (from the rows given, without reading them back), and the
 * response carries the position just after it.
 */
export class RequestWrites {
  readonly xids: string[] = [];
  /** With the xid of the transaction that wrote each. */
  readonly changes: (OwnProjectChange & { xid: string })[] = [];
  readonly projects: IndexedProjectRow[] = [];
  readonly tags: IndexedTagRow[] = [];
  /** The tags its tag.updated changes name (a rename, a merge): re-read. */
  readonly tagIds: string[] = [];
  /**
   * Whether it wrote what reads of no particular project show, and the feed does not carry (a
   * duplicate dismissal): those reads go to the primary until a standby shows it
   * (docs/operating.md#read-your-writes).
   */
  beyondProjects = false;

  /** The rows a committed transaction of this request wrote (never those of one that failed). */
  wrote(rows: WrittenRows): void {
    this.projects.push(...rows.projects);
    this.tags.push(...rows.tags);
  }
}

/** Where a transaction runs, and the request's record of what it commits (absent: none is kept). */
export interface TransactionTarget {
  db: Kysely<Database>;
  writes?: RequestWrites | undefined;
}

// serialization_failure, deadlock_detected, unique_violation: outcomes of a race that a
// fresh attempt resolves (it sees the other transaction's committed rows).
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const ATTEMPTS = 4;

/**
 * Runs `fn` in a transaction on `target.db`, retrying it whole when it lost a race to another
 * writer; once it commits, its xid and feed changes go into `target.writes` when given.
 */
export async function inTransaction<T>(
  target: TransactionTarget,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const writes = target.writes;
  for (let attempt = 1; ; attempt++) {
    let own: Awaited<ReturnType<typeof currentTransactionWrites>> | undefined;
    try {
      const result = await target.db.transaction().execute(async (trx) => {
        const result = await fn(trx);
        if (writes) own = await currentTransactionWrites(trx);
        return result;
      });
      if (writes && own?.xid) {
        writes.xids.push(own.xid);
        const xid = own.xid;
        for (const c of own.changes) writes.changes.push({ ...c, xid });
        writes.tagIds.push(...own.tagIds);
      }
      return result;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
