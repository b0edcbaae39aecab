import type { Output } from './context.ts';

export interface ProgressState {
  /** Batches sent so far. */
  batches: number;
  /** Input records handled so far. */
  items: number;
  /** Running totals in display order, e.g. { created, updated, failed }. */
  counts: Record<string, number>;
  /** Share of the input consumed (0..1), when known; draws the bar. */
  fraction?: number | undefined;
}

const BAR_WIDTH = 16;

const countsText = (counts: Record<string, number>, sep: string) =>
  Object.entries(counts)
    .map(([label, n]) => `${n} ${label}`)
    .join(sep);

/** The line redrawn in place on a terminal: a bar when the total is known, then the counts. */
export function renderBar(state: ProgressState, columns = 80): string {
  let bar = '';
  if (state.fraction !== undefined) {
    const f = Math.min(1, Math.max(0, state.fraction));
    const filled = Math.round(f * BAR_WIDTH);
    bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(f * 100)).padStart(3)}% `;
  }
  const line = `${bar}batch ${state.batches}, ${plural(state.items, 'item', 'items')}: ${countsText(state.counts, ', ')}`;
  // A line as wide as the terminal wraps, and \r then only returns to the wrapped part.
  return line.length >= columns ? line.slice(0, Math.max(0, columns - 1)) : line;
}

/** One line per batch when stderr is not a terminal (logs, CI): no control characters. */
export function renderPlain(state: ProgressState): string {
  return `batch ${state.batches}, ${plural(state.items, 'item', 'items')}: ${countsText(state.counts, ', ')}`;
}

export interface Progress {
  update(state: ProgressState): void;
  /** Ends the redrawn line so what follows starts on its own. */
  done(): void;
}

export function createProgress(stream: Output, enabled = true): Progress {
  if (!enabled) return { update() {}, done() {} };
  if (!stream.isTTY) {
    return {
      update: (state) => stream.write(`${renderPlain(state)}\n`),
      done() {},
    };
  }
  let drawn = false;
  return {
    update(state) {
      // \x1b[K clears what a longer previous line left to the right.
      stream.write(`\r${renderBar(state, stream.columns || 80)}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
