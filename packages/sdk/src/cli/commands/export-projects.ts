import { createWriteStream, type WriteStream } from 'node:fs';
import { open, stat, truncate } from 'node:fs/promises';
import type { ExportOptions } from '../../helpers/export-projects.ts';
import { type Command, stringOption } from '../args.ts';
import type { CommandContext } from '../context.ts';
import { EXIT_OK, UsageError } from '../errors.ts';

/** How much of a file's end is read to find its last complete line (a project line is far shorter). */
const TAIL_BYTES = 4 * 1024 * 1024;

export const exportProjects: Command = {
  name: 'export',
  summary: 'Export every project (NDJSON or CSV) as of one snapshot, resuming after a cut',
  synopsis: 'export [--format ndjson|csv] [--out FILE] [--resume]',
  help: `
Writes GET /api/export to stdout, or to FILE with --out: NDJSON (a header line with the change
feed cursor to follow from, then one project per line, in id order) or CSV (a header row, then
one row per project). The key needs the scope 'export'.

A cut connection is resumed by itself after the last project received (a new snapshot). The
first header's cursor stays the one to follow the feed from (the file keeps only that header).
An NDJSON --out FILE left incomplete by an earlier run is continued with --resume: from the last
complete line of FILE (a cut-off last line is dropped), with the same filters as the first run.

Progress goes to stderr: projects written of the export's count.

Options:
  --format <f>           ndjson (default) or csv
  --out <file>           write to this file instead of stdout (refused if it exists, unless --resume)
  --resume               continue an NDJSON --out file an earlier run left incomplete
  --status <s>           active, archived or all (default all)
  --tag <slug>           only projects with this tag (repeatable: all of them)
  --updated-after <iso>  only projects updated after this time
  --quiet                no progress output

Example:
  directory export --out directory.ndjson && directory changes --after "$(head -1 directory.ndjson | jq -r .cursor)"`,
  options: {
    format: { type: 'string' },
    out: { type: 'string' },
    resume: { type: 'boolean' },
    status: { type: 'string' },
    tag: { type: 'string', multiple: true },
    'updated-after': { type: 'string' },
    quiet: { type: 'boolean' },
  },
  args: { min: 0, max: 0 },

  async run(ctx) {
    const format = stringOption(ctx.values, 'format') ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'csv')
      throw new UsageError(`--format must be ndjson or csv, got '${format}'`, 'export');
    const out = stringOption(ctx.values, 'out');
    const resume = ctx.values.resume === true;
    if (resume && (out === undefined || format !== 'ndjson'))
      throw new UsageError('--resume continues an NDJSON --out file', 'export');
    const options: ExportOptions = {
      ...(stringOption(ctx.values, 'status') && {
        status: stringOption(ctx.values, 'status')!.toUpperCase() as ExportOptions['status'],
      }),
      tag: ([] as string[]).concat((ctx.values.tag as unknown as string[] | undefined) ?? []),
      ...(stringOption(ctx.values, 'updated-after') && {
        updatedAfter: stringOption(ctx.values, 'updated-after'),
      }),
      onResume: ({ after, error }) =>
        ctx.warn(
          `connection cut (${error.details[0] ?? error.error}); resuming after ${after ?? 'the start'}`,
        ),
    };
    let wroteHeader = false;
    let sink: Sink;
    if (out !== undefined) {
      const existing = await stat(out).catch(() => undefined);
      if (existing && existing.size > 0 && !resume)
        throw new UsageError(`${out} exists: --resume continues it, or remove it first`, 'export');
      if (resume && existing && existing.size > 0) {
        const last = await lastCompleteLine(out, existing.size);
        if (last.header) wroteHeader = true;
        if (last.id) options.after = last.id;
        ctx.warn(`resuming ${out} after ${last.id ?? 'its header'}`);
      }
      sink = fileSink(createWriteStream(out, { flags: 'a' }));
    } else sink = { write: async (text) => void ctx.io.stdout.write(text), end: async () => {} };

    const progress = progressOf(ctx);
    const exp = ctx.client.exportText(format, options);
    let written = 0;
    try {
      for await (const record of exp) {
        if (record.id === undefined) {
          // a header line or row: the first part's only (a resumed file keeps its own)
          if (record.part > 0 || wroteHeader) continue;
          wroteHeader = true;
        } else written++;
        await sink.write(record.text);
        if (record.id !== undefined) progress(written, exp.header?.count);
      }
    } finally {
      await sink.end();
    }
    progress(written, exp.header?.count, true);
    return EXIT_OK;
  },
};

interface Sink {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

/** A file written with backpressure: a write waits while the stream's buffer is full. */
function fileSink(stream: WriteStream): Sink {
  return {
    write: (text) =>
      new Promise((resolve, reject) => {
        if (stream.write(text)) return resolve();
        stream.once('drain', resolve);
        stream.once('error', reject);
      }),
    end: () => new Promise((resolve) => stream.end(resolve)),
  };
}

/**
 * The last complete line of an NDJSON export file: the id of its project (or that it is the
 * header); a cut-off line after it is removed from the file.
 */
async function lastCompleteLine(path: string, size: number): Promise<{ id?: string; header: boolean }> {
  const file = await open(path, 'r');
  try {
    const from = Math.max(0, size - TAIL_BYTES);
    const { buffer, bytesRead } = await file.read(Buffer.alloc(size - from), 0, size - from, from);
    const tail = buffer.subarray(0, bytesRead);
    const end = tail.lastIndexOf(10);
    if (end < 0) throw new UsageError(`${path} has no complete line to resume from`, 'export');
    if (end + 1 < tail.length) await truncate(path, from + end + 1);
    const line = tail.subarray(tail.lastIndexOf(10, end - 1) + 1, end).toString('utf8');
    const value = JSON.parse(line) as { type?: unknown; id?: unknown };
    if (value.type === 'export') return { header: true };
    if (typeof value.id !== 'string')
      throw new UsageError(`${path}: its last line is not a project`, 'export');
    return { id: value.id, header: true };
  } finally {
    await file.close();
  }
}

/** `12000 of 50000 projects` on stderr: redrawn on a terminal, else a line every 1,000 and at the end. */
function progressOf(ctx: CommandContext): (n: number, count: number | undefined, last?: boolean) => void {
  const { stderr } = ctx.io;
  if (ctx.values.quiet === true) return () => {};
  return (n, count, last = false) => {
    const text = `${n}${count === undefined ? '' : ` of ${count}`} projects`;
    if (stderr.isTTY) stderr.write(`\r${text}\x1b[K${last ? '\n' : ''}`);
    else if (last || n % 1_000 === 0) stderr.write(`${text}\n`);
  };
}
