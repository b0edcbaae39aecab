import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Measurement, Scenario, ScenarioOptions, Tally } from './scenario.ts';

/* A scenario measured against its target with autocannon: requests per second, exact latencies, CPU. */

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function cannon(url: string, scenario: Scenario, seconds: number, tally: Tally) {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: scenario.connections,
    duration: seconds,
    timeout: 30,
    requests: scenario.requests(tally),
  });
  // autocannon's own histogram keeps whole milliseconds; these are exact.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
  });
  const result = await instance;
  return { result, latencies };
}

/** User + system CPU seconds of a process so far, from /proc (Linux; USER_HZ is 100); undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const newTally = (): Tally => ({ created: 0, updated: 0, failed: 0, notes: new Set() });

/** Warms the target up for `warmup` seconds, then measures for `duration` seconds. */
export async function measure(
  scenario: Scenario,
  target: { url: string; pid: number },
  options: Pick<ScenarioOptions, 'duration' | 'warmup'> & { onMeasure?: () => void },
): Promise<Measurement> {
  const { url, pid } = target;
  await scenario.prepare?.();
  if (options.warmup > 0) await cannon(url, scenario, options.warmup, newTally());
  options.onMeasure?.();
  const tally = newTally();
  const cpuBefore = cpuSeconds(pid);
  const { result, latencies } = await cannon(url, scenario, options.duration, tally);
  const cpuAfter = cpuSeconds(pid);
  const sorted = Float64Array.from(latencies).sort();
  const status: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) status[code] = Number(count);
  const seconds = result.duration;
  const ok = Object.entries(status)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  const items = scenario.items?.(ok, tally);
  const notes = [...tally.notes];
  if (tally.created + tally.updated + tally.failed > 0)
    notes.push(`${tally.created} created, ${tally.updated} updated, ${tally.failed} failed`);
  return {
    key: scenario.key,
    label: scenario.label,
    target: scenario.target,
    connections: scenario.connections,
    seconds,
    responses: latencies.length,
    reqPerSec: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    status,
    ...(cpuBefore !== undefined &&
      cpuAfter !== undefined &&
      latencies.length > 0 && { cpuMsPerRequest: ((cpuAfter - cpuBefore) * 1000) / latencies.length }),
    non2xx: result.non2xx,
    errors: result.errors,
    ...(items !== undefined && { itemsPerSec: items / seconds }),
    notes,
  };
}
