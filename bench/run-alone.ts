import { availableParallelism } from 'node:os';
import { runExportBench } from './export.ts';
import { writeFigures } from './figures.ts';
import { scalingFigures } from './figures-of.ts';
import { renderMove, runMoveBench } from './move.ts';
import { adminUrl, apiKey, flags, integer, only, setting, settings } from './run-settings.ts';
import { children, cleanUp, databases } from './run-tracked.ts';
import { renderScaling, runScalingBench } from './scaling.ts';
import { runStandbyBench } from './standby.ts';

/** The parts of `pnpm bench` that run alone, each when `--scenarios` names it; true when one ran. */
export async function runAlone(): Promise<boolean> {
  // `--scenarios standby`: a primary and a hot standby of the bench's own (bench/standby.ts), alone.
  if (only.includes('standby')) {
    try {
      const table = await runStandbyBench({
        projects: integer('sizes', 'BENCH_SIZES', 20_000, 100),
        duration: settings.duration,
        warmup: settings.warmup,
        connections: settings.connections,
        writesPerSecond: integer('writer-rate', 'BENCH_WRITER_RATE', 200, 1),
        children,
      });
      console.log(table);
    } finally {
      await cleanUp();
    }
    return true;
  }

  // `--scenarios export`: GET /api/export on PostgreSQL and PGlite (bench/export.ts), alone.
  if (only.includes('export')) {
    try {
      const table = await runExportBench({
        adminUrl,
        apiKey,
        projects: integer('sizes', 'BENCH_SIZES', 100_000, 100),
        track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
      });
      console.log(table);
    } finally {
      await cleanUp();
    }
    return true;
  }

  // `--scenarios scaling`: WEB_CONCURRENCY 1, 2, 4, … against one process (bench/scaling.ts), alone.
  if (only.includes('scaling')) {
    try {
      console.log('\n== scaling: the same reads against 1, 2, 4, … processes');
      const processes = setting('scaling-processes', 'BENCH_SCALING_PROCESSES', '');
      const result = await runScalingBench({
        adminUrl,
        apiKey,
        projects: integer('scaling-projects', 'BENCH_SCALING_PROJECTS', 100_000, 100),
        duration: settings.duration,
        warmup: settings.warmup,
        connections: settings.connections,
        generatorThreads: integer(
          'generator-threads',
          'BENCH_GENERATOR_THREADS',
          Math.max(1, Math.floor(availableParallelism() / 4)),
          1,
        ),
        processes: processes ? processes.split(',').map(Number) : undefined,
        track: (x) => ('stop' in x ? children.add(x) : databases.add(x)),
        untrack: (x) => ('stop' in x ? children.delete(x) : databases.delete(x)),
      });
      console.log(renderScaling(result).join('\n'));
      if (flags.write) await writeFigures(scalingFigures(result));
    } finally {
      await cleanUp();
    }
    return true;
  }

  // `--scenarios move`: `pnpm db:move` of an embedded directory into PostgreSQL (bench/move.ts), alone.
  if (only.includes('move')) {
    try {
      console.log('\n== move: an embedded directory (each project edited 3 times) into PostgreSQL');
      const result = await runMoveBench({
        adminUrl,
        projects: integer('move-projects', 'BENCH_MOVE_PROJECTS', 10_000, 100),
        edits: 3,
        track: (x) => databases.add(x),
      });
      console.log(renderMove(result).join('\n'));
    } finally {
      await cleanUp();
    }
    return true;
  }
  return false;
}
