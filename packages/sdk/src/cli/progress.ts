import type { Output } from './context.ts';

export interface ProgressState {
  /** The number of the batch just sent (1-based). */
  batch: number;
  /** Records in that batch. */
  batchItems: number;
  /** Input records handled so far: sent, and refused before sending (unreadable lines). */
  done: number;
  /** Records in the whole input, when known (a file; not stdin read as lines). */
  total?: number | undefined;
  /** Records per batch, to tell how many batches the rest of the input makes. */
  batchSize: number;
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

/**
 * The line redrawn in place on a terminal: a bar when the share done is known and the terminal
 * has room for it beside the words (the words say the same in figures), then the words.
 */
export function renderBar(state: ProgressState, columns = 80): string {
  const text = describe(state);
  let bar = '';
  if (state.fraction !== undefined && BAR_WIDTH + 8 + text.length < columns) {
    const f = Math.min(1, Math.max(0, state.fraction));
    const filled = Math.round(f * BAR_WIDTH);
    bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(f * 100)).padStart(3)}% `;
  }
  const line = `${bar}${text}`;
  // A line as wide as the terminal wraps, and \r then only returns to the wrapped part.
  return line.length >= columns ? line.slice(0, Math.max(0, columns - 1)) : line;
}

/** One line per batch when stderr is not a terminal (logs, CI): no control characters. */
export function renderPlain(state: ProgressState): string {
  return describe(state);
}

/**
 * `batch 2 of 7: 100 items, 200 of 700 done: 198 created, 0 updated, 2 failed`: the batch just
 * sent and its own size, then the records handled of the whole input. "of 7" is the batches
 * sent so far plus those the records still to come make, so it is exact at the last batch
 * (records refused before sending make no batch); without a known total, both "of" are left out.
 */
function describe(state: ProgressState): string {
  const { batch, batchItems, done, total, batchSize, counts } = state;
  const known = total !== undefined;
  const batches = known ? ` of ${batch + Math.ceil(Math.max(0, total - done) / batchSize)}` : '';
  const records = known ? `${done} of ${total}` : `${done}`;
  return `batch ${batch}${batches}: ${plural(batchItems, 'item', 'items')}, ${records} done: ${countsText(counts, ', ')}`;
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
