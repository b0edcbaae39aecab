import { type Area, type Figure, thisRun } from './figures.ts';
import type { Report } from './report.ts';
import { targets } from './report-targets.ts';
import { GENERATOR_LIMIT, type ScalingResult } from './scaling.ts';
import type { WritesResult } from './writes.ts';

/* Each part of the bench's results as rows of the page of current figures (bench/figures.ts). */

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** The area a target of the main run belongs to, by what it measures. */
function areaOf(name: string): Area {
  if (/^search|p99 of every search|list page|tags list|related/.test(name)) return 'Searches';
  if (/upsert|write-to-searchable/.test(name)) return 'Writes';
  if (/model build/.test(name)) return 'Restarts';
  if (/memory/.test(name)) return 'Memory';
  return 'Reads';
}

/** The main run's targets (bench/report-targets.ts), judged at 100,000 projects. */
export function sizeFigures(report: Report): Figure[] {
  const run = thisRun();
  return targets(report)
    .filter((t) => t.met !== undefined)
    .map((t) => ({ area: areaOf(t.name), target: t.name, figure: t.detail, met: t.met ?? null, ...run }));
}

/** Writes through endpoint 1 (bench/writes.ts): this checkout's rates, and what a webhook costs them. */
export function writesFigures(writes: WritesResult): Figure[] {
  const run = thisRun();
  return writes.backends.flatMap((b) => {
    const at = (phase: string) => b.phases.find((p) => p.phase === phase)?.after ?? Number.NaN;
    const size = `${int(b.projects)} projects`;
    const hook =
      (at('new, webhook subscribed') + at('updates, webhook subscribed')) / (at('new') + at('updates'));
    const rows: Figure[] = [
      {
        area: 'Writes',
        target: `${b.backend}: new projects through endpoint 1 ≥ 3,000/s at ${size}`,
        figure: `${int(at('new'))}/s (updates ${int(at('updates'))}/s, unchanged ${int(at('unchanged'))}/s)`,
        met: b.backend === 'PostgreSQL' ? at('new') >= 3000 : null,
        ...run,
      },
      {
        area: 'Feed and webhooks',
        target: `${b.backend}: writes with one webhook subscribed ≥ 0.9 × without, at ${size}`,
        figure: `${hook.toFixed(2)} (new ${int(at('new, webhook subscribed'))}/s, updates ${int(at('updates, webhook subscribed'))}/s)`,
        met: b.backend === 'PostgreSQL' ? hook >= 0.9 : null,
        ...run,
      },
    ];
    if (b.freshness)
      rows.push({
        area: 'Writes',
        target: `${b.backend}: a write found by another process's search, p99 ≤ 100 ms`,
        figure: `p50 ${b.freshness.after.p50.toFixed(1)} ms, p99 ${b.freshness.after.p99.toFixed(1)} ms`,
        met: b.freshness.after.p99 <= 100,
        ...run,
      });
    return rows;
  });
}

/** WEB_CONCURRENCY against one process (bench/scaling.ts): the most processes measured, per request. */
export function scalingFigures(result: ScalingResult): Figure[] {
  const run = thisRun();
  const most = Math.max(...result.rows.map((r) => r.processes));
  return result.rows
    .filter((r) => r.processes === most && most > 1)
    .map((r) => {
      const one = result.rows.find((o) => o.kind === r.kind && o.processes === 1)!;
      const bound = [one, r].find((x) => x.generatorShare >= GENERATOR_LIMIT);
      const ratio = r.reqPerSec / one.reqPerSec;
      return {
        area: 'Processes' as const,
        target: `${r.label}: ${most} processes ÷ one (server on ${result.serverCpus}, generator ${result.generatorCpus ?? 'on the same CPUs'})`,
        figure: bound
          ? `not reported: the generator was the limit (${(100 * bound.generatorShare).toFixed(0)}% of its ${result.generatorThreads} threads)`
          : `${ratio.toFixed(2)}× (${int(one.reqPerSec)} → ${int(r.reqPerSec)} req/s)`,
        met: null,
        ...run,
      };
    });
}
