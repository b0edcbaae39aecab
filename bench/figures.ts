import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/*
 * The page of current figures (bench/RESULTS.md): one table per area, each row a target (or a figure
 * without one) with the latest figure measured, whether it meets the target, when, on what, and the
 * command that measured it. `pnpm bench -- --write` replaces the rows its run measured and keeps the
 * others (bench/figures.json holds them all); past runs are in git history, not on the page.
 */

export const AREAS = [
  'Reads',
  'Searches',
  'Writes',
  'Queue',
  'Feed and webhooks',
  'Restarts',
  'Memory',
  'Processes',
  'Export and move',
] as const;
export type Area = (typeof AREAS)[number];

export interface Figure {
  area: Area;
  /** What is measured, with its target when it has one ("… ≥ 0.5 × GET by slug"); the row's key. */
  target: string;
  /** The figure, with its unit and, where useful, the other sizes measured. */
  figure: string;
  /** Whether it meets the target; null when it has none or it was not measured. */
  met: boolean | null;
  /** Why a target is not met, written by hand after the run (a new run's row comes without one). */
  why?: string;
  /** The day, the machine's CPUs and its load average when the figures were written (the run's end). */
  when: string;
  /** The command that measured it. */
  command: string;
}

const STORE = join(ROOT, 'bench/figures.json');
const PAGE = join(ROOT, 'bench/RESULTS.md');

export function loadFigures(): Figure[] {
  try {
    return JSON.parse(readFileSync(STORE, 'utf8')) as Figure[];
  } catch {
    return [];
  }
}

/** The run's context for each figure it measured: the day, the machine, and this command. */
export function thisRun(): Pick<Figure, 'when' | 'command'> {
  const args = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
  return {
    when: `${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs, load ${(loadavg()[0] ?? 0).toFixed(1)}`,
    command: `pnpm bench -- ${args.join(' ')}`.trim(),
  };
}

/** The stored figures with this run's in place of the rows they measure (same area and target). */
export function mergeFigures(stored: Figure[], measured: Figure[]): Figure[] {
  const key = (f: Figure) => `${f.area}\u0000${f.target}`;
  const fresh = new Map(measured.map((f) => [key(f), f]));
  const kept = stored.map((f) => fresh.get(key(f)) ?? f);
  const added = measured.filter((f) => !stored.some((s) => key(s) === key(f)));
  return [...kept, ...added];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const metText = (met: boolean | null) => (met === null ? '–' : met ? 'met' : '**not met**');

export function renderPage(figures: Figure[]): string {
  const lines = [
    '# Benchmark results: the current figures',
    '',
    'Written by `pnpm bench -- --write` from `bench/figures.json`: each row is the latest run of its',
    'figure, with the day, the machine and the command that measured it. A run replaces the rows it',
    "measured and keeps the others; earlier runs are in this file's git history",
    '(`git log -p bench/RESULTS.md`). How to run each part, and what each scenario sends:',
    '[docs/benchmarks.md](../docs/benchmarks.md). The detailed tables of the latest runs are in',
    '[LAST-RUN.md](LAST-RUN.md).',
    '',
    'This machine is shared and has 2 cores: figures taken under load (the load is in each row) are',
    'lower and noisier than on a quiet machine; ratios measured side by side in one run hold better.',
  ];
  for (const area of AREAS) {
    const rows = figures.filter((f) => f.area === area);
    if (rows.length === 0) continue;
    // the commands under the table, each once, numbered in the rows
    const commands = [...new Set(rows.map((f) => f.command))];
    lines.push(
      '',
      `## ${area}`,
      '',
      '| target | figure | met | when | command |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const f of rows)
      lines.push(
        `| ${cell(f.target)} | ${cell(f.figure)}${f.why ? ` — why: ${cell(f.why)}` : ''} | ${metText(f.met)} | ${cell(f.when)} | [${commands.indexOf(f.command) + 1}] |`,
      );
    lines.push('', ...commands.map((c, i) => `${i + 1}. \`${c}\``));
  }
  return `${lines.join('\n')}\n`;
}

/** Stores this run's figures with the others and writes the page (formatted as `pnpm lint` wants it). */
export async function writeFigures(measured: Figure[]): Promise<void> {
  const figures = mergeFigures(loadFigures(), measured);
  writeFileSync(STORE, `${JSON.stringify(figures, null, 2)}\n`);
  writeFileSync(PAGE, renderPage(figures));
  execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', PAGE, STORE], {
    stdio: 'ignore',
  });
  console.log(`wrote ${PAGE} (${measured.length} figures of this run, ${figures.length} in all)`);
}
