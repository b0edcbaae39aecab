import { describe, expect, it } from 'vitest';
import { Turns } from './turns.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('turns of the reads', () => {
  it('runs every search in arrival order, with its value or its error', async () => {
    const turns = new Turns();
    const order: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        turns.run(() => {
          order.push(i);
          if (i === 7) throw new Error('seven');
          return i * 2;
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(results[7]).toEqual({ status: 'rejected', reason: new Error('seven') });
    expect(results[8]).toEqual({ status: 'fulfilled', value: 16 });
    expect(turns.waiting).toBe(0);
  });

  it('gives the event loop back between turns: a timer and an I/O callback run before the queue is done', async () => {
    const turns = new Turns(4);
    const marks: string[] = [];
    const all = Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        turns.run(() => {
          if (i === 0) {
            // while the first search runs: what else the process has to do
            setTimeout(() => marks.push('timer'), 0);
            setImmediate(() => marks.push('immediate'));
          }
          busy(1);
          marks.push(`search ${i}`);
        }),
      ),
    );
    await all;
    // without turns, 100 ms of searches would run before either
    for (const mark of ['timer', 'immediate']) {
      expect(marks.indexOf(mark), mark).toBeGreaterThanOrEqual(0);
      expect(marks.indexOf(mark), mark).toBeLessThan(30);
    }
    expect(marks.filter((m) => m.startsWith('search'))).toHaveLength(100);
  });

  it('runs a search queued during a turn in the same queue', async () => {
    const turns = new Turns();
    const inner = await turns.run(() => turns.run(() => 'inner'));
    expect(inner).toBe('inner');
  });
});
