import type { WritesResult } from './writes.ts';

/* The writes section of bench/LAST-RUN.md, from the figures of writes.ts. */

export const WRITES_START = '<!-- writes bench: start -->';
export const WRITES_END = '<!-- writes bench: end -->';

/** The writes section of bench/LAST-RUN.md. */
export function renderWritesSection(r: WritesResult, when = new Date()): string {
  const lines = [
    WRITES_START,
    '## Writes through endpoint 1 (bench/writes.ts)',
    '',
    `Run ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${r.clients} clients, each sending batches of 100 ` +
      `one after the other, ${r.batches} batches (${(r.batches * 100).toLocaleString('en-US')} projects) per phase; ` +
      `"before" is the server of ${r.commit} (before the write path's rework), "after" this checkout's, each phase run on one then ` +
      'the other; ratio = after ÷ before. Updates change every project (a revision each); "unchanged" sends the ' +
      'same projects again. The webhook phases deliver every change to a receiver on this machine.',
    '',
  ];
  for (const b of r.backends) {
    lines.push(
      `### ${b.backend}, ${b.projects.toLocaleString('en-US')} projects`,
      '',
      '| phase | before (projects/s) | after (projects/s) | after ÷ before |',
      '|---|---:|---:|---:|',
      ...b.phases.map(
        (p) =>
          `| ${p.phase} | ${Math.round(p.before)} | ${Math.round(p.after)} | ${(p.after / p.before).toFixed(2)} |`,
      ),
    );
    const at = (phase: string, side: 'before' | 'after') =>
      b.phases.find((p) => p.phase === phase)?.[side] ?? 0;
    const hookShare = (side: 'before' | 'after') =>
      ((at('new, webhook subscribed', side) + at('updates, webhook subscribed', side)) /
        (at('new', side) + at('updates', side))) *
      100;
    lines.push(
      `| with a webhook ÷ without (new + updates) | ${hookShare('before').toFixed(0)}% | ${hookShare('after').toFixed(0)}% | |`,
    );
    if (b.freshness)
      lines.push(
        '',
        `A write through another server process, found by this one's search: before p50 ${b.freshness.before.p50.toFixed(1)} ms, ` +
          `p99 ${b.freshness.before.p99.toFixed(1)} ms; after p50 ${b.freshness.after.p50.toFixed(1)} ms, ` +
          `p99 ${b.freshness.after.p99.toFixed(1)} ms (${b.freshness.after.samples} writes each).`,
      );
    lines.push('');
  }
  lines.push(WRITES_END);
  return `${lines.join('\n')}\n`;
}

/** `markdown` with its writes section replaced by (or, when it has none, followed by) `section`. */
export function withWritesSection(markdown: string, section: string): string {
  const start = markdown.indexOf(WRITES_START);
  const end = markdown.indexOf(WRITES_END);
  if (start >= 0 && end > start)
    return markdown.slice(0, start) + section.trimEnd() + markdown.slice(end + WRITES_END.length);
  return `${markdown.trimEnd()}\n\n${section}`;
}
