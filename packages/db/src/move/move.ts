import { advancePastFeed } from '../changes/advance.ts';
import type { DatabaseHandle } from '../connect.ts';
import { migrateToLatest } from '../migrate.ts';
import { baseTables, migrationNames } from './compare.ts';
import { copyAll } from './copy-all.ts';
import { MoveRefused, type MoveReport } from './report.ts';
import { unknownTables } from './tables.ts';
import { dataIn, describeData } from './target-data.ts';

export interface MoveOptions {
  /** Core's URL key function, for the backfill when the source's schema is older (migrate.ts). */
  urlKey?: (url: string) => string;
  /** Rows per COPY (default 10,000). */
  chunk?: number;
  /** A line of progress (the CLI writes them to stderr). */
  progress?: (line: string) => void;
}

/**
 * Copies a directory's database into an empty PostgreSQL database (docs/operating.md#moving-to-postgresql):
 * 1. migrates both to this code's schema and refuses a source with a table the mover does not
 *    know (move/tables.ts), a target holding any data, and two different lists of migrations;
 * 2. in one transaction on the target, over one snapshot of the source: copies every table in
 *    key order with its sequences (copy-all.ts), then reads every row back from the target and
 *    compares it with what the source wrote (the rows' bytes in key order, and their count), and
 *    commits only when every table matches;
 * 3. advances the feed's positions as a start on another cluster would (changes/advance.ts), so
 *    a follower's cursor goes on and new changes order after every copied one.
 * The source is only read (beyond its migrations). Throws MoveRefused when it changed nothing.
 */
export async function moveDatabase(
  from: DatabaseHandle,
  to: DatabaseHandle,
  options: MoveOptions = {},
): Promise<MoveReport> {
  const started = Date.now();
  const say = options.progress ?? (() => {});
  const embedded = from.embedded;
  if (!embedded)
    throw new MoveRefused(
      'The source must be an embedded database (pglite:<dir>); for PostgreSQL, use pg_dump.',
    );
  if (to.target.kind !== 'postgres')
    throw new MoveRefused('The target must be a PostgreSQL database (postgres://…).');
  const [source, target] = [from.db, to.db];
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
  const [ran, runs] = [await migrationNames(source), await migrationNames(target)];
  if (ran.join('\n') !== runs.join('\n')) {
    throw new MoveRefused(
      `The source and the target list different migrations (${ran.length} and ${runs.length}): run both with this version of the code.`,
    );
  }
  const tables = await copyAll({ pool: from.pool, embedded }, to.pool, options.chunk ?? 10_000, say);
  say('advancing the change feed past every copied position');
  const feed = await advancePastFeed(target);
  return { tables, feed, milliseconds: Date.now() - started };
}
