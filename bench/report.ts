import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { DatabaseHandle } from '../packages/db/src/index.ts';

export type { Machine, Report, Settings, SizeResult };

import { cpuOf, itemsOf, type UpsertComparison } from './model.ts';
import { fmtBytes, fmtInt, fmtMs, fmtRatio, textTable, verdict } from './report-format.ts';
import { baselineOf, scaling, slugOf, statusText, targetSize, targets } from './report-targets.ts';
import type { Machine, Report, Settings, SizeResult } from './report-types.ts';
import type { Measurement } from './scenarios.ts';

export async function describeMachine(pool: DatabaseHandle['pool']): Promise<Machine> {
  const { rows } = await pool.query<{ version: string }>('select version()');
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    postgres: rows[0]?.version.replace(/ on .*/, '') ?? 'unknown',
    date: new Date().toISOString(),
    load: loadavg()[0] ?? 0,
  };
}

export function resultRows(size: SizeResult): string[][] {
  const baseline = baselineOf(size);
  const slug = slugOf(size);
  return size.measurements.map((m) => [
    m.label,
    String(m.connections),
    fmtInt(m.reqPerSec),
    fmtMs(m.p50),
    fmtMs(m.p99),
    statusText(m),
    baseline ? fmtRatio(m.reqPerSec / baseline.reqPerSec) : '-',
    slug && m.target === 'server' ? fmtRatio(m.reqPerSec / slug.reqPerSec) : '',
    m.itemsPerSec === undefined ? '' : fmtInt(m.itemsPerSec),
    m.cpuMsPerRequest === undefined ? '-' : fmtMs(m.cpuMsPerRequest),
  ]);
}

export const RESULT_HEADER = [
  'scenario',
  'conns',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  '÷ baseline',
  '÷ slug',
  'items/s',
  'CPU ms/req',
];

export const sizeTitle = (size: SizeResult) =>
  `${fmtInt(size.projects)} projects, ${fmtInt(size.tasks)} tasks (` +
  `${size.via === 'api' ? 'projects written through endpoint 1' : 'seeded with SQL'}, ${size.seedSeconds.toFixed(1)} s)`;

/** Sizes beyond the target size: their worst factor from the smallest size is shown for reference. */
export const beyond = (report: Report) => {
  const main = targetSize(report);
  return main ? report.sizes.filter((s) => s.projects > main.projects) : [];
};

export function scalingHeader(report: Report): string[] {
  return [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'worst',
    ...beyond(report).map((s) => `worst at ${fmtInt(s.projects)}`),
    'CPU ms/req',
  ];
}

export function scalingTitle(report: Report): string {
  return `${fmtInt(report.sizes[0]?.projects ?? 0)} → ${fmtInt(targetSize(report)?.projects ?? 0)} projects`;
}

export function scalingRows(report: Report): string[][] {
  const further = beyond(report).map((size) => scaling(report, size));
  return scaling(report).map((s) => [
    s.label,
    `${fmtInt(s.small.reqPerSec)} → ${fmtInt(s.large.reqPerSec)} (${fmtRatio(s.reqPerSec)})`,
    `${fmtMs(s.small.p50)} → ${fmtMs(s.large.p50)} (${fmtRatio(s.p50)})`,
    `${fmtMs(s.small.p99)} → ${fmtMs(s.large.p99)} (${fmtRatio(s.p99)})`,
    fmtRatio(s.worst),
    ...further.map((f) => fmtRatio(f.find((x) => x.key === s.key)?.worst)),
    s.small.cpuMsPerRequest === undefined || s.large.cpuMsPerRequest === undefined
      ? '-'
      : `${fmtMs(s.small.cpuMsPerRequest)} → ${fmtMs(s.large.cpuMsPerRequest)}`,
  ]);
}

export function notes(report: Report): string[] {
  const out: string[] = [];
  for (const size of report.sizes) {
    for (const m of size.measurements) {
      for (const note of m.notes) out.push(`${fmtInt(size.projects)} projects, ${m.key}: ${note}`);
    }
    if (size.serverLog.trim()) {
      const lines = size.serverLog.trim().split('\n');
      out.push(
        `${fmtInt(size.projects)} projects: the service logged ${lines.length} warning/error lines, the last: ${lines[lines.length - 1]}`,
      );
    }
  }
  return out;
}

export const MODEL_HEADER = [
  'projects',
  'written',
  'ready after s',
  'model build s',
  'index bytes/project',
  'RSS ready',
  'RSS after the run',
  'peak RSS',
  'write → searchable elsewhere p50 / p99 / max ms',
  'the write alone p50 / p99 ms',
];

export function modelRows(report: Report): string[][] {
  return report.sizes.map((size) => {
    const m = size.model;
    const f = size.freshness;
    return [
      fmtInt(size.projects),
      size.via === 'api' ? 'endpoint 1' : 'SQL',
      m.readySeconds.toFixed(1),
      m.buildSeconds === undefined ? '-' : m.buildSeconds.toFixed(1),
      m.indexBytes === undefined || !m.projects ? '-' : fmtInt(m.indexBytes / m.projects),
      fmtBytes(m.ready?.rss),
      fmtBytes(m.end?.rss),
      fmtBytes(Math.max(m.ready?.peak ?? 0, m.end?.peak ?? 0) || undefined),
      f ? `${fmtMs(f.p50)} / ${fmtMs(f.p99)} / ${fmtMs(f.max)}` : '-',
      f ? `${fmtMs(f.writeP50)} / ${fmtMs(f.writeP99)}` : '-',
    ];
  });
}

export const UPSERT_HEADER = [
  'server',
  'projects/s per round',
  'mean projects/s',
  'CPU ms per batch',
  '÷ before',
];

export function upsertRows(u: UpsertComparison): string[][] {
  const base = itemsOf(u.before);
  return [
    [`before the model (${u.commit})`, u.before],
    ['with the model (this checkout)', u.after],
  ].map(([name, runs]) => {
    const ms = runs as Measurement[];
    return [
      name as string,
      ms.map((m) => fmtInt(m.itemsPerSec ?? 0)).join(', '),
      fmtInt(itemsOf(ms)),
      fmtMs(cpuOf(ms)),
      `${Math.round((itemsOf(ms) / base) * 100)}%`,
    ];
  });
}

/** One size's results. */
function renderSize(size: SizeResult): string {
  return `\n${sizeTitle(size)}\n${textTable(RESULT_HEADER, resultRows(size))}\n`;
}

/** The closing summary printed at the end of a run. */
export function renderSummary(report: Report): string {
  const parts: string[] = [];
  for (const size of report.sizes) parts.push(renderSize(size));
  const rows = scalingRows(report);
  if (rows.length > 0)
    parts.push(
      `\n${scalingTitle(report)} (factor for the worse)\n${textTable(scalingHeader(report), rows)}\n`,
    );
  if (report.sizes.length > 0) parts.push(`\nRead model\n${textTable(MODEL_HEADER, modelRows(report))}\n`);
  if (report.upserts)
    parts.push(
      `\nUpserts, ${fmtInt(report.upserts.projects)} projects\n${textTable(UPSERT_HEADER, upsertRows(report.upserts))}\n`,
    );
  parts.push(
    `\nTargets\n${textTable(
      ['target', 'result', 'figures'],
      targets(report).map((t) => [t.name, verdict(t.met), t.detail]),
    )}\n`,
  );
  const n = notes(report);
  if (n.length > 0) parts.push(`\nNotes\n${n.map((x) => `- ${x}`).join('\n')}\n`);
  return parts.join('');
}
