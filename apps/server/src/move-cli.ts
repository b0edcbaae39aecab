import { parseArgs } from 'node:util';
import { urlKey } from '@directory/core/server';
import {
  connect,
  type DatabaseHandle,
  MoveRefused,
  moveDatabase,
  parseDatabaseUrl,
  redact,
} from '@directory/db';

// `pnpm db:move --from pglite:./data --to postgres://…` (docs/operating.md#moving-to-postgresql):
// progress on stderr, the report on stdout, exit code 1 with one line saying why on failure.
const USAGE = 'usage: pnpm db:move --from pglite:<dir> --to postgres://user@host:5432/<empty database>';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: { from: { type: 'string' }, to: { type: 'string' } },
  });
  if (!values.from || !values.to) {
    console.error(USAGE);
    return 2;
  }
  if (parseDatabaseUrl(values.from).kind !== 'pglite') {
    throw new MoveRefused(
      '--from must be an embedded database (pglite:<dir>); a PostgreSQL one moves with pg_dump',
    );
  }
  if (parseDatabaseUrl(values.to).kind !== 'postgres') {
    throw new MoveRefused('--to must be a PostgreSQL database (postgres://…): a new, empty one');
  }
  let source: DatabaseHandle;
  try {
    source = await connect(values.from);
  } catch (err) {
    if (err instanceof Error && /in use by another process/.test(err.message)) {
      throw new MoveRefused(`${err.message.replace(/ PGlite allows.*$/, '')} Stop the server, then move.`);
    }
    throw err;
  }
  try {
    const target = await connect(values.to, { poolSize: 1 });
    try {
      const progress = (line: string) => process.stderr.write(`${line}\n`);
      progress(`moving ${redact(values.from)} to ${redact(values.to)}`);
      const report = await moveDatabase(source, target, { urlKey, progress });
      const width = Math.max(...report.tables.map((t) => t.name.length));
      console.log(`${'table'.padEnd(width)}  ${'rows'.padStart(9)}  sha-256 of the rows (source = target)`);
      for (const t of report.tables)
        console.log(`${t.name.padEnd(width)}  ${String(t.rows).padStart(9)}  ${t.sha256}`);
      const rows = report.tables.reduce((n, t) => n + t.rows, 0);
      console.log(
        `moved ${rows} rows of ${report.tables.length} tables in ${(report.milliseconds / 1000).toFixed(1)} s; ` +
          'every row read back from the target matches the source',
      );
      console.log(
        `change feed: ${report.feed.moved ? 'change ids moved on by 10^12' : 'ids kept'}, ` +
          `${report.feed.spent} transaction ids spent; a follower's cursor goes on`,
      );
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  let root = err;
  while (root instanceof Error && root.cause !== undefined) root = root.cause;
  const message =
    root instanceof Error ? root.message || String((root as { code?: unknown }).code) : String(root);
  console.error(`Cannot move: ${message}`);
  process.exitCode = 1;
}
