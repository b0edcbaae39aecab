// East Asian Wide and Fullwidth ranges (CJK, Hangul, fullwidth forms): two terminal columns.
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{20000}-\u{3FFFD}]/u;

/** Terminal columns a string takes: wide characters two, combining marks none, others one. */
export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) width += WIDE.test(ch) ? 2 : /\p{M}/u.test(ch) ? 0 : 1;
  return width;
}

const pad = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - displayWidth(s)));

/** Left-aligned columns separated by two spaces (aligned by display width); the last column is not padded. */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i] ?? 0)))
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
