import type { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Database } from '../tables.ts';
import { sameTextSettings } from './compare.ts';
import {
  type Copied,
  copySequences,
  copyTable,
  ident,
  readBack,
  type TableShape,
  tableShape,
} from './copy-table.ts';
import { onClient } from './protocol.ts';
import { type MovedTableReport, MoveRefused } from './report.ts';
import { MOVED_TABLES } from './tables.ts';
import { dataIn, describeData } from './target-data.ts';

/**
 * The copy itself (docs/operating.md#moving-to-postgresql): one read-only snapshot of the source,
 * one transaction on the target, every table of MOVED_TABLES in its order, then every row read
 * back from the target and compared with what the source wrote; the target commits only when all
 * match, and a failure anywhere leaves nothing there.
 */
export async function copyAll(
  source: { pool: pg.Pool; embedded: PGlite },
  targetPool: pg.Pool,
  chunk: number,
  say: (line: string) => void,
): Promise<MovedTableReport[]> {
  const srcClient = await source.pool.connect();
  const dstClient = await targetPool.connect();
  const src = { db: onClient(srcClient), embedded: source.embedded };
  const dst = { db: onClient(dstClient), client: dstClient };
  const open = { src: false, dst: false };
  let failed = false;
  try {
    await sql`begin isolation level repeatable read`.execute(src.db);
    open.src = true;
    await sql`begin`.execute(dst.db);
    open.dst = true;
    // The same text for the same values on both sides (COPY's text format is compared whole).
    await sameTextSettings(src.db);
    await sameTextSettings(dst.db);
    await skipForeignKeyChecks(dst.db);
    const names = MOVED_TABLES.map((t) => ident(t.name)).join(', ');
    // No server may write the target meanwhile; then it is looked at again, under the lock.
    await sql`lock table ${sql.raw(names)} in access exclusive mode`.execute(dst.db);
    const held = await dataIn(dst.db);
    if (held.length > 0) {
      throw new MoveRefused(`The target is not empty: ${describeData(held)}. Nothing was changed there.`);
    }
    const copied: { shape: TableShape; total: number; copy: Copied }[] = [];
    for (const table of MOVED_TABLES) {
      const shape = await sameShape(src.db, dst.db, table.name);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.raw(ident(table.name))}`.execute(src.db);
      const total = rows[0]?.n ?? 0;
      // Triggers would record the copied rows as new changes, deliveries and counts: the copy
      // carries those tables as they are.
      await sql`alter table ${sql.raw(ident(table.name))} disable trigger user`.execute(dst.db);
      await sql`delete from ${sql.raw(ident(table.name))}`.execute(dst.db);
      let shown = Date.now();
      const copy = await copyTable(
        src,
        dst,
        shape,
        table.selfReference ? Number.POSITIVE_INFINITY : chunk,
        (n) => {
          if (Date.now() - shown < 1_000) return;
          shown = Date.now();
          say(`${table.name}: ${n} of ${total} rows`);
        },
      );
      await copySequences(src.db, dst.db, shape);
      await sql`alter table ${sql.raw(ident(table.name))} enable trigger user`.execute(dst.db);
      say(`${table.name}: ${copy.rows} rows copied`);
      copied.push({ shape, total, copy });
    }
    say('verifying: every row of every table read back from the target and compared with the source');
    const wrong: string[] = [];
    const report: MovedTableReport[] = [];
    for (const { shape, total, copy } of copied) {
      const back = await readBack(dst, shape);
      if (back.rows !== total || copy.rows !== total || back.sha256 !== copy.sha256) {
        wrong.push(
          `${shape.name} (source ${total} rows, copied ${copy.rows}, read back ${back.rows}${back.sha256 === copy.sha256 ? '' : ', other bytes'})`,
        );
      }
      report.push({ name: shape.name, rows: total, sha256: copy.sha256 });
    }
    if (wrong.length > 0) {
      throw new Error(
        `The copy differs from the source: ${wrong.join(', ')}. Nothing was committed in the target.`,
      );
    }
    await sql`commit`.execute(dst.db);
    open.dst = false;
    return report;
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    if (open.dst) await sql`rollback`.execute(dst.db).catch(() => {});
    if (open.src) await sql`rollback`.execute(src.db).catch(() => {});
    srcClient.release();
    // a connection that failed in the middle of a COPY is not given back to the pool
    dstClient.release(failed);
  }
}

async function sameShape(
  source: Kysely<Database>,
  target: Kysely<Database>,
  name: string,
): Promise<TableShape> {
  const [shape, there] = [await tableShape(source, name), await tableShape(target, name)];
  if (shape.columns.join() !== there.columns.join() || shape.key.join() !== there.key.join()) {
    throw new Error(`Table ${name} has other columns in the source than in the target.`);
  }
  return shape;
}

/**
 * When the role may (a superuser, or one granted the setting), the target checks no foreign key
 * while it takes the rows: they come from a database that held them, and every row is read back
 * and compared before the commit. Checking them row by row is most of the time the target spends
 * on links and tags. Without the right, the keys are checked, only slower.
 */
async function skipForeignKeyChecks(db: Kysely<Database>): Promise<void> {
  await sql`savepoint replica`.execute(db);
  try {
    await sql`set local session_replication_role = replica`.execute(db);
    await sql`release savepoint replica`.execute(db);
  } catch {
    await sql`rollback to savepoint replica`.execute(db);
  }
}
