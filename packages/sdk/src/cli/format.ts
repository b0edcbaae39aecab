/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

/** An ISO timestamp as `2026-11-21 08:00:00Z`; readable, still UTC. */
export const shortTime = (iso: string | null | undefined) =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : '-';

/** One failed input record, as the summaries of import and tasks add list them. */
export interface Failure {
  index: number;
  line?: number | undefined;
  /** The project's name (import). */
  name?: string | undefined;
  /** The task's URL (tasks add). */
  sourceUrl?: string | undefined;
  error: string;
}

export function failureLines(failures: Failure[]): string[] {
  return failures.map((f) => {
    const where = f.line === undefined ? `#${f.index}` : `#${f.index} (line ${f.line})`;
    const what = f.name ?? f.sourceUrl;
    const name = what ? ` ${JSON.stringify(what)}` : '';
    return `  ${where}${name}: ${f.error}`;
  });
}

export const byIndex = (a: Failure, b: Failure) => a.index - b.index;
