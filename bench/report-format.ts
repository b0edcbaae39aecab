/* Figures and tables as the benchmark report prints them (report.ts, report-markdown.ts). */

export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmtMs = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(1));
export const fmtRatio = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '-' : `${n.toFixed(2)}×`;

export const GIB = 2 ** 30;

export const fmtBytes = (n: number | undefined) =>
  n === undefined ? '-' : n >= GIB ? `${(n / GIB).toFixed(2)} GiB` : `${Math.round(n / 2 ** 20)} MiB`;

export const verdict = (met: boolean | undefined) =>
  met === undefined ? 'not measured' : met ? 'met' : 'NOT met';

export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A Markdown table; columns after the first are right-aligned unless `left`. */
export function mdTable(header: string[], rows: string[][], left = false): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = header.map((_, i) => (i === 0 || left ? ' --- ' : ' ---: ')).join('|');
  return [line(header), `|${rule}|`, ...rows.map(line)].join('\n');
}
