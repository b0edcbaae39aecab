import { type QueueSizeResult, WORKERS } from './queue.ts';

/* The task queue's section of bench/LAST-RUN.md, from the figures of queue.ts. */

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** The LAST-RUN.md section: figures per size, and the targets met or not. */
export function renderQueueSection(results: QueueSizeResult[], when = new Date()): string {
  const lines = [
    QUEUE_START,
    '## The task queue (bench/queue.ts)',
    '',
    `Run ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC on PostgreSQL; ${WORKERS} workers (closed loops over HTTP keep-alive) ` +
      'against one server process; N COMPLETED tasks seeded with generate_series, plus PENDING tasks for the claims.',
    '',
    '| COMPLETED tasks | claim, batch 50 (tasks/s) | cycle claim→heartbeat→complete (tasks/s) | upsert 1 project/request (projects/s) | cycle ÷ upsert | endpoint 5 first page + total (req/s) | endpoint 5 by cursor, mid-table (req/s) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${int(r.tasks)} | ${int(r.claimPerSec)} | ${int(r.cyclePerSec)} | ${int(r.upsertPerSec)} | ` +
        `${ratio(r.cyclePerSec, r.upsertPerSec).toFixed(2)} | ${int(r.listPerSec)} | ${int(r.listCursorPerSec)} |`,
    ),
    '',
  ];
  const small = results[0];
  const large = results[results.length - 1];
  if (small && large) {
    const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
    const claimMin = Math.min(...results.map((r) => r.claimPerSec));
    const cycleWorst = Math.min(...results.map((r) => ratio(r.cyclePerSec, r.upsertPerSec)));
    const claimDrop = ratio(small.claimPerSec, large.claimPerSec);
    const listDrop = ratio(small.listPerSec, large.listPerSec);
    lines.push(
      'Targets:',
      '',
      `- claim ≥ 5,000 tasks/s: ${met(claimMin >= 5000)} (lowest ${int(claimMin)})`,
      `- full cycle ≥ 50% of the same run's single-project upsert rate: ${met(cycleWorst >= 0.5)} (lowest ${cycleWorst.toFixed(2)})`,
      `- claim within 1.5× from ${int(small.tasks)} to ${int(large.tasks)} tasks: ${met(claimDrop <= 1.5)} (${claimDrop.toFixed(2)}×)`,
      `- endpoint 5 (page with its total) within 1.5× from ${int(small.tasks)} to ${int(large.tasks)} tasks: ${met(listDrop <= 1.5)} (${listDrop.toFixed(2)}×)`,
      '',
    );
  }
  const notes = results.flatMap((r) => [
    `- ${int(r.tasks)}: load average ${r.load.toFixed(1)} on this machine's cores when it started`,
    ...r.notes.map((n) => `- ${int(r.tasks)}: ${n}`),
  ]);
  if (notes.length) lines.push('Notes:', '', ...notes, '');
  lines.push(
    'Run only this part with `pnpm bench -- --scenarios queue --write` (it replaces this section); ' +
      '`--queue-sizes 20000,1000000` sets the sizes.',
    QUEUE_END,
  );
  return `${lines.join('\n')}\n`;
}

export const QUEUE_START = '<!-- queue bench: start -->';
export const QUEUE_END = '<!-- queue bench: end -->';

/** `markdown` with its queue section replaced by (or, when it has none, followed by) `section`. */
export function withQueueSection(markdown: string, section: string): string {
  const start = markdown.indexOf(QUEUE_START);
  const end = markdown.indexOf(QUEUE_END);
  if (start >= 0 && end > start)
    return markdown.slice(0, start) + section.trimEnd() + markdown.slice(end + QUEUE_END.length);
  return `${markdown.trimEnd()}\n\n${section}`;
}
