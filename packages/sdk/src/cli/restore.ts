import { DirectoryError } from '../errors.ts';
import { type CommandContext, printJson } from './context.ts';
import { EXIT_OK, InputError } from './errors.ts';
import { fileLines } from './input.ts';
import { createProgress, plural } from './progress.ts';

/** Projects per call, and bytes of them, well inside the server's 500 and its body limit. */
const BATCH_MAX = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

/** The export's first line, as read: the server checks it with every batch. */
type Header = { type: 'export'; version: 1; asOf: string; cursor: string; count: number };

interface Batch {
  firstLine: number;
  projects: unknown[];
  bytes: number;
  done: boolean;
}

const objectOf = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

async function readHeader(path: string): Promise<Header> {
  for await (const raw of fileLines(path)) {
    try {
      return JSON.parse(raw) as Header;
    } catch {
      throw new InputError(`${path}: line 1 is not JSON: an export starts with its header line`);
    }
  }
  throw new InputError(`${path}: empty: an export starts with its header line`);
}

/**
 * The export's projects in batches, each with the line number of its first project; the lines
 * of projects `afterId` or before (restored by an earlier run) are left out.
 */
async function* batchesOf(path: string, afterId: string | null): AsyncGenerator<Batch> {
  let lineNo = 0;
  let current: Batch | undefined;
  let skipping = afterId !== null;
  for await (const raw of fileLines(path)) {
    lineNo++;
    if (lineNo === 1) continue;
    const text = raw.trim();
    if (text === '')
      throw new InputError(`${path}: line ${lineNo} is blank: an export has a project on every line`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new InputError(`${path}: line ${lineNo} is not JSON (${(err as Error).message})`);
    }
    const id = objectOf(value)?.id;
    if (skipping && typeof id === 'string' && id <= afterId!) continue;
    skipping = false;
    const bytes = Buffer.byteLength(text) + 1;
    if (current && (current.projects.length >= BATCH_MAX || current.bytes + bytes > BATCH_BYTES)) {
      yield current;
      current = undefined;
    }
    current ??= { firstLine: lineNo, projects: [], bytes: 0, done: false };
    current.projects.push(value);
    current.bytes += bytes;
  }
  yield { ...(current ?? { firstLine: lineNo + 1, projects: [], bytes: 0 }), done: true };
}

/**
 * What spans batches, checked before anything is written (the server checks each batch, and
 * each line by endpoint 1's rules): ids in increasing order, every slug and alias once, a tag the
 * same on every line.
 */
function spanChecker() {
  let previous: { id: string; line: number } | undefined;
  const slugs = new Map<string, number>();
  const tags = new Map<string, { text: string; line: number }>();
  return (batch: Batch): string[] => {
    const problems: string[] = [];
    for (const [i, value] of batch.projects.entries()) {
      const line = batch.firstLine + i;
      const p = objectOf(value);
      if (!p || typeof p.id !== 'string') continue;
      if (previous && !(p.id > previous.id))
        problems.push(`line ${line}: id: "${p.id}" is not after "${previous.id}" (line ${previous.line})`);
      previous = { id: p.id, line };
      const aliases = Array.isArray(p.aliases) ? p.aliases : [];
      for (const slug of [p.slug, ...aliases]) {
        if (typeof slug !== 'string') continue;
        const seen = slugs.get(slug);
        if (seen !== undefined && seen !== line)
          problems.push(`line ${line}: slug: "${slug}" is also on line ${seen}`);
        slugs.set(slug, line);
      }
      for (const tag of Array.isArray(p.tags) ? p.tags : []) {
        const t = objectOf(tag);
        if (!t || typeof t.id !== 'string') continue;
        const text = JSON.stringify([t.name, t.nameEn, t.slug]);
        const seen = tags.get(t.id);
        if (seen && seen.text !== text)
          problems.push(`line ${line}: tags: the tag "${t.id}" differs from line ${seen.line}'s`);
        if (!seen) tags.set(t.id, { text, line });
      }
    }
    return problems;
  };
}

/**
 * `directory import --restore FILE` (docs/operating.md#restore-from-an-export): the whole file
 * is checked first (every batch by the server with `check`, what spans batches here), then
 * written a batch per call, each one transaction. A run that stops leaves the restore
 * unfinished; the same command resumes it after the last project restored.
 */
export async function runRestore(ctx: CommandContext, path: string): Promise<number> {
  const header = await readHeader(path);
  const status = (await ctx.client.restore.status()).data;
  const resume = status.state === 'unfinished' ? status.restore : null;
  const afterId = resume?.lastId ?? null;
  if (resume)
    ctx.warn(`resuming the unfinished restore: ${resume.received} of ${resume.expected} projects restored`);

  const checkSpans = spanChecker();
  let checked = 0;
  for await (const batch of batchesOf(path, afterId)) {
    const problems = checkSpans(batch);
    if (problems.length > 0)
      throw new InputError(`${path}: nothing was restored:\n  ${problems.slice(0, 20).join('\n  ')}`);
    await ctx.client.restore.batch({
      header,
      firstLine: batch.firstLine,
      projects: batch.projects,
      check: true,
    });
    checked += batch.projects.length;
  }

  // the last batch's check, made before anything is written
  const lines = (resume?.received ?? 0) + checked;
  if (lines !== header.count)
    throw new InputError(
      `${path}: nothing was restored: its header counts ${header.count} projects, the file holds ${lines} ` +
        '(an export cut short, or one resumed over a later snapshot: export it again whole)',
    );

  const progress = createProgress(ctx.io.stderr, ctx.values.quiet !== true);
  let done = { batches: 0, received: resume?.received ?? 0 };
  try {
    for await (const batch of batchesOf(path, afterId)) {
      const r = await ctx.client.restore.batch({
        header,
        firstLine: batch.firstLine,
        projects: batch.projects,
        done: batch.done,
      });
      done = { batches: done.batches + 1, received: r.data.received };
      progress.update({
        batch: done.batches,
        batchItems: batch.projects.length,
        done: r.data.received,
        total: header.count,
        batchSize: BATCH_MAX,
        counts: { restored: r.data.received },
        fraction: header.count > 0 ? r.data.received / header.count : 1,
      });
    }
  } catch (err) {
    progress.done();
    if (err instanceof DirectoryError && done.received > 0)
      ctx.warn(
        `the restore is unfinished: ${done.received} of ${header.count} projects restored; run the same command again to resume`,
      );
    throw err;
  }
  progress.done();
  const summary = {
    restored: done.received,
    expected: header.count,
    asOf: header.asOf,
    checked,
    resumed: resume !== null,
  };
  if (ctx.json) printJson(ctx, summary);
  else
    ctx.print(
      `${plural(summary.restored, 'project', 'projects')} restored from the export as of ${header.asOf}`,
    );
  return EXIT_OK;
}
