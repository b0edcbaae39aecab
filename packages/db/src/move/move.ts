import { type Kysely, sql } from 'kysely';
import { advancePastFeed, type FeedAdvance } from '../changes/advance.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Database } from '../tables.ts';
import { baseTables, migrationNames, sameTextSettings, type TableSum, tableSum } from './compare.ts';
import { copySequences, copyTable, ident, type TableShape, tableShape } from './copy-table.ts';
import { MOVED_TABLES, unknownTables } from './tables.ts';
import { dataIn, describeData } from './target-data.ts';

type Db = Kysely<Database>;

/** A move that did not happen: the message says why; the target was left as it was. */
export class MoveRefused extends Error {}

export interface MoveOptions {
  /** Core's URL key function, for the backfill when the source's schema is older (migrate.ts). */
  urlKey?: (url: string) => string;
  /** Rows per statement (default 2,000). */
  chunk?: number;
  /** A line of progress (the CLI writes them to stderr). */
  progress?: (line: string) => void;
}

export interface MovedTableReport extends TableSum {
  name: string;
}

export interface MoveReport {
  /** Every table copied, with its rows and the checksum both sides gave. */
  tables: MovedTableReport[];
  /** What the target's first start would have done to the feed's positions, done by the move. */
  feed: FeedAdvance;
  milliseconds: number;
}

/**
 * Copies a directory's database into an empty PostgreSQL database (docs/operating.md#moving-to-postgresql):
 * 1. migrates both to this code's schema and refuses a source with a table the mover does not
 *    know (move/tables.ts), a target holding any data, and two different lists of migrations;
 * 2. in one transaction on the target, over one snapshot of the source: copies every table in
 *    key order with its sequences, then reads every row back from both sides (a checksum per
 *    table, the same SQL on each) and commits only when every table matches;
 * 3. advances the feed's positions as a start on another cluster would (changes/advance.ts), so
 *    a follower's cursor goes on and new changes order after every copied one.
 * The source is only read (beyond its migrations). Throws MoveRefused when it changed nothing.
 */
export async function moveDatabase(source: Db, target: Db, options: MoveOptions = {}): Promise<MoveReport> {
  const started = Date.now();
  const say = options.progress ?? (() => {});
  const held = await dataIn(target);
  if (held.length > 0) {
    throw new MoveRefused(
      `The target is not empty: ${describeData(held)}. Nothing was changed there; move into a new, empty database.`,
    );
  }
  await migrateToLatest(source, options.urlKey ? { urlKey: options.urlKey } : {});
  const unknown = unknownTables(await baseTables(source));
  if (unknown.length > 0) {
    throw new MoveRefused(
      `The source has tables the mover does not know: ${unknown.join(', ')}. ` +
        'Add them to packages/db/src/move/tables.ts (a migration added them); nothing was changed in the target.',
    );
  }
  say('migrating the target');
  await migrateToLatest(target);
  const [from, to] = [await migrationNames(source), await migrationNames(target)];
  if (from.join('\n') !== to.join('\n')) {
    throw new MoveRefused(
      `The source and the target list different migrations (${from.length} and ${to.length}): run both with this version of the code.`,
    );
  }
  const tables = await copyAll(source, target, options.chunk ?? 2_000, say);
  say('advancing the change feed past every copied position');
  const feed = await advancePastFeed(target);
  return { tables, feed, milliseconds: Date.now() - started };
}

async function copyAll(source: Db, target: Db, chunk: number, say: (line: string) => void) {
  return source
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (src) =>
      target.transaction().execute(async (dst) => {
        const names = MOVED_TABLES.map((t) => ident(t.name)).join(', ');
        // No server may write the target meanwhile; then it is looked at again, under the lock.
        await sql`lock table ${sql.raw(names)} in access exclusive mode`.execute(dst);
        const held = await dataIn(dst);
        if (held.length > 0) {
          throw new MoveRefused(`The target is not empty: ${describeData(held)}. Nothing was changed there.`);
        }
        const shapes: TableShape[] = [];
        for (const table of MOVED_TABLES) {
          const shape = await tableShape(src, table.name);
          const there = await tableShape(dst, table.name);
          if (shape.columns.join() !== there.columns.join() || shape.key.join() !== there.key.join()) {
            throw new MoveRefused(`Table ${table.name} has other columns in the source than in the target.`);
          }
          shapes.push(shape);
          const { rows } = await sql<{
            n: number;
          }>`select count(*)::int as n from ${sql.raw(ident(table.name))}`.execute(src);
          const total = rows[0]?.n ?? 0;
          // Triggers would record the copied rows as new changes, deliveries and counts: the
          // copy carries those tables as they are.
          await sql`alter table ${sql.raw(ident(table.name))} disable trigger user`.execute(dst);
          await sql`delete from ${sql.raw(ident(table.name))}`.execute(dst);
          let shown = Date.now();
          const copied = await copyTable(src, dst, shape, {
            chunk: table.selfReference ? Number.POSITIVE_INFINITY : chunk,
            onRows: (rows) => {
              if (Date.now() - shown < 1_000) return;
              shown = Date.now();
              say(`${table.name}: ${rows} of ${total} rows`);
            },
          });
          await copySequences(src, dst, shape);
          await sql`alter table ${sql.raw(ident(table.name))} enable trigger user`.execute(dst);
          say(`${table.name}: ${copied} rows copied`);
        }
        say('verifying: every row of every table read back from both');
        await sameTextSettings(src);
        await sameTextSettings(dst);
        const report: MovedTableReport[] = [];
        const wrong: string[] = [];
        for (const shape of shapes) {
          const [a, b] = await Promise.all([tableSum(src, shape), tableSum(dst, shape)]);
          if (a.rows !== b.rows || a.sum !== b.sum) {
            wrong.push(`${shape.name} (source ${a.rows} rows ${a.sum}, target ${b.rows} rows ${b.sum})`);
          }
          report.push({ name: shape.name, ...a });
        }
        if (wrong.length > 0) {
          throw new Error(
            `The copy differs from the source: ${wrong.join(', ')}. Nothing was committed in the target.`,
          );
        }
        return report;
      }),
    );
}
