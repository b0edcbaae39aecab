import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readItems } from '../src/cli/input.ts';
import { createProgress, renderBar, renderPlain } from '../src/cli/progress.ts';

/**
 * The CLI's progress lines and its reading of input files, in-process with no server
 * (docs/getting-started.md#cli-directory): the bar or plain lines of a batched run, and NDJSON, JSON
 * documents and plain-text URL lists told apart by their content.
 */

describe('progress rendering (in-process)', () => {
  const state = {
    batch: 3,
    batchItems: 100,
    done: 300,
    total: 700,
    batchSize: 100,
    counts: { created: 250, updated: 40, failed: 10 },
  };
  const line = 'batch 3 of 7: 100 items, 300 of 700 done: 250 created, 40 updated, 10 failed';

  it('draws a bar when the share done is known, and counts only when not', () => {
    expect(renderBar({ ...state, fraction: 0.25 }, 120)).toBe(`[████░░░░░░░░░░░░]  25% ${line}`);
    expect(renderBar(state, 120)).toBe(line);
    // No room for the bar beside the words: the words alone (they say the same in figures).
    expect(renderBar({ ...state, fraction: 0.25 })).toBe(line);
    // Never as wide as the terminal: a wrapped line cannot be redrawn with \r.
    expect(renderBar({ ...state, fraction: 1 }, 40)).toBe('batch 3 of 7: 100 items, 300 of 700 don');
    expect(renderPlain(state)).toBe(line);
  });

  it('says the batch of how many and the records of how many, or neither when the total is unknown', () => {
    expect(renderPlain({ ...state, total: undefined })).toBe(
      'batch 3: 100 items, 300 done: 250 created, 40 updated, 10 failed',
    );
    // 50 records refused before sending make no batch: the count of batches comes down to what is sent.
    expect(renderPlain({ ...state, batch: 6, batchItems: 100, done: 650 })).toMatch(
      /^batch 6 of 7: 100 items, 650 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 7, batchItems: 50, done: 700 })).toMatch(
      /^batch 7 of 7: 50 items, 700 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 6, batchItems: 50, done: 700 })).toMatch(
      /^batch 6 of 6: 50 items, 700 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 1, batchItems: 1, done: 1, total: 1 })).toMatch(
      /^batch 1 of 1: 1 item, 1 of 1 done/,
    );
  });

  it('redraws one line in place on a terminal and ends it with a newline', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: true, columns: 120, write: (s: string) => writes.push(s) });
    progress.update({ ...state, fraction: 0.5 });
    progress.update({ ...state, batch: 4, done: 400, fraction: 1 });
    progress.done();
    expect(writes).toEqual([
      `\r[████████░░░░░░░░]  50% ${line}\x1b[K`,
      '\r[████████████████] 100% batch 4 of 7: 100 items, 400 of 700 done: 250 created, 40 updated, 10 failed\x1b[K',
      '\n',
    ]);
  });

  it('writes plain lines when not a terminal, and nothing when disabled', () => {
    const writes: string[] = [];
    const stream = { write: (s: string) => writes.push(s) };
    createProgress(stream).update({ ...state, fraction: 0.5 });
    const quiet = createProgress(stream, false);
    quiet.update(state);
    quiet.done();
    expect(writes).toEqual([`${line}\n`]);
  });
});

describe('input reading (in-process)', () => {
  const source = (text: string, ext = '') => ({
    name: 'test',
    chunks: Readable.from([Buffer.from(text)]),
    size: Buffer.byteLength(text),
    ext,
  });
  const collect = async (reader: Awaited<ReturnType<typeof readItems>>) => {
    const out = [];
    for await (const item of reader.items) out.push(item);
    return out;
  };

  it('takes a leading BOM, CRLF and blank lines in NDJSON, numbering records and lines', async () => {
    const reader = await readItems(source('\uFEFF{"a":1}\r\n\r\n{"b":2}\r\nnope\r\n'), {
      wrapperKey: 'projects',
    });
    expect(await collect(reader)).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
      { index: 1, line: 3, value: { b: 2 } },
      { index: 2, line: 4, error: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect(reader.fraction()).toBe(1);
  });

  it('tells a pretty-printed or one-line wrapper document from NDJSON', async () => {
    const wrapper = { projects: [{ a: 1 }, { b: 2 }] };
    for (const text of [
      JSON.stringify(wrapper, null, 2),
      JSON.stringify(wrapper),
      JSON.stringify(wrapper.projects),
    ]) {
      expect(await collect(await readItems(source(text), { wrapperKey: 'projects' }))).toEqual([
        { index: 0, value: { a: 1 } },
        { index: 1, value: { b: 2 } },
      ]);
    }
  });

  it('takes plain-text lines as strings for URL lists, skipping comments', async () => {
    const text = '# list\nhttps://a.example/\n"https://b.example/"\n{"sourceUrl":"https://c.example/"}\n';
    const items = await collect(await readItems(source(text), { wrapperKey: 'tasks', plainText: true }));
    expect(items.map((i) => i.value)).toEqual([
      'https://a.example/',
      'https://b.example/',
      { sourceUrl: 'https://c.example/' },
    ]);
  });
});
