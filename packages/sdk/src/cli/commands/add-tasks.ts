import { DirectoryError } from '../../errors.ts';
import type { RouterInputs } from '../../index.ts';
import { type Command, stringOption } from '../args.ts';
import { type CommandContext, printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { byIndex, type Failure, failureLines } from '../format.ts';
import { type InputItem, openSource, readItems } from '../input.ts';
import { createProgress } from '../progress.ts';

type TaskInput = RouterInputs['tasks']['create']['tasks'][number];

/** The endpoint's limit per request. */
const BATCH_SIZE = 50;
const ITEM_DETAIL = /^tasks\.(\d+)\.(.*)$/s;

export interface AddTasksSummary {
  created: number;
  skipped: number;
  /** URLs the service accepted (created + skipped). */
  total: number;
  failed: number;
  errors: Failure[];
  /** URLs not queued because a stored project already has them (none with --force). */
  existingProjects: { index: number; line?: number | undefined; sourceUrl: string; slug: string }[];
}

export const addTasks: Command = {
  name: 'tasks add',
  summary: 'Queue discovery tasks for source URLs, 50 per request',
  synopsis: 'tasks add <file|->',
  help: `
Input: plain text with one URL per line ('#' starts a comment line), NDJSON of URL strings or
{ "sourceUrl", "sourceType" } objects, or a JSON array of either (or { "tasks": [...] }).
'-' reads stdin. Each batch is checked first (POST /api/discovery/check-duplicates, as the
console does): a URL a stored project already has is not queued, and is listed as
"project <slug> already has this URL" (completing such a task would replace that project;
--force queues it anyway). A URL that already has a task is skipped; one the service refuses
(not an http(s) URL) is reported as failed and does not stop the others. Exit 1 when any failed.

Options:
  --source-type <type>  sourceType for entries that name none (the service's default: manual)
  --force               queue URLs that a stored project already has too
  --quiet               no progress output

Example:
  printf 'https://github.com/a/b\\nhttps://example.org/\\n' | directory tasks add - --source-type manual`,
  options: { 'source-type': { type: 'string' }, force: { type: 'boolean' }, quiet: { type: 'boolean' } },
  args: { min: 1, max: 1 },

  async run(ctx) {
    const source = await openSource(ctx.positionals[0]!, ctx.io.stdin);
    if (source.name === 'stdin' && ctx.io.stdin.isTTY)
      ctx.warn('reading URLs from the terminal; end with Ctrl-D');
    const reader = await readItems(source, { wrapperKey: 'tasks', plainText: true });
    const sourceType = stringOption(ctx.values, 'source-type');

    const summary: AddTasksSummary = {
      created: 0,
      skipped: 0,
      total: 0,
      failed: 0,
      errors: [],
      existingProjects: [],
    };
    const force = ctx.values.force === true;
    const progress = createProgress(ctx.io.stderr, ctx.values.quiet !== true);
    let batches = 0;
    let items = 0;
    const report = (batchItems: number) =>
      progress.update({
        batch: batches,
        batchItems,
        done: items,
        total: reader.total,
        batchSize: BATCH_SIZE,
        counts: { created: summary.created, skipped: summary.skipped, failed: summary.failed },
        fraction: reader.fraction(),
      });
    const fail = (f: Failure) => {
      summary.failed++;
      summary.errors.push(f);
    };

    let batch: { item: InputItem; task: TaskInput }[] = [];
    const flush = async () => {
      batches++;
      await sendBatch(ctx, force ? batch : await withoutProjectUrls(ctx, batch, summary), summary, fail);
      items += batch.length;
      const size = batch.length;
      batch = [];
      report(size);
    };
    try {
      for await (const item of reader.items) {
        const task = item.error === undefined ? toTask(item.value, sourceType) : item.error;
        if (typeof task === 'string') {
          fail({ index: item.index, line: item.line, error: task });
          items++;
          continue;
        }
        batch.push({ item, task });
        if (batch.length === BATCH_SIZE) await flush();
      }
      if (batch.length > 0) await flush();
    } catch (err) {
      progress.done();
      // What was queued stays queued; say how far it got before the error line.
      if (items > 0) {
        ctx.warn(
          `stopped after ${items} entries: ${summary.created} created, ${summary.skipped} skipped, ${summary.failed} failed`,
        );
      }
      throw err;
    }
    progress.done();

    summary.errors.sort(byIndex);
    summary.existingProjects.sort((a, b) => a.index - b.index);
    const existing = summary.existingProjects.length;
    if (ctx.json) {
      printJson(ctx, summary);
    } else {
      ctx.print(
        `${summary.created} created, ${summary.skipped} skipped (already have a task), ${summary.total} total${existing ? `, ${existing} not queued (a project has the URL)` : ''}${summary.failed ? `, ${summary.failed} failed` : ''}`,
      );
      if (existing > 0) {
        ctx.print('Not queued (--force queues them anyway):');
        for (const e of summary.existingProjects)
          ctx.print(`  ${e.sourceUrl}: project ${e.slug} already has this URL`);
      }
      if (summary.errors.length > 0) {
        ctx.print('Failed:');
        for (const line of failureLines(summary.errors)) ctx.print(line);
      }
    }
    return summary.failed > 0 ? EXIT_FAILED : EXIT_OK;
  },
};

/** A task to send, or why the entry cannot be one. */
function toTask(value: unknown, sourceType: string | undefined): TaskInput | string {
  const entry = typeof value === 'string' ? { sourceUrl: value } : value;
  const sourceUrl = (entry as { sourceUrl?: unknown } | null)?.sourceUrl;
  if (typeof sourceUrl !== 'string') return 'expected a URL string or an object with a "sourceUrl" string';
  // An entry's own sourceType wins; a wrong type is the service's to refuse, with the item named.
  const type = ((entry as { sourceType?: unknown }).sourceType ?? sourceType) as string | undefined;
  return type === undefined ? { sourceUrl } : { sourceUrl, sourceType: type };
}

/**
 * The batch without the URLs a stored project already has (endpoint 9 says so), which are
 * recorded instead: a task for one would, once completed, replace that project.
 */
async function withoutProjectUrls(
  ctx: CommandContext,
  batch: { item: InputItem; task: TaskInput }[],
  summary: AddTasksSummary,
): Promise<{ item: InputItem; task: TaskInput }[]> {
  const { results } = await ctx.client.tasks.checkDuplicates({ urls: batch.map((b) => b.task.sourceUrl) });
  const projects = new Map(
    results.flatMap((r) => (r.existingProject ? [[r.url, r.existingProject.slug]] : [])),
  );
  return batch.filter(({ item, task }) => {
    const slug = projects.get(task.sourceUrl);
    if (slug === undefined) return true;
    summary.existingProjects.push({ index: item.index, line: item.line, sourceUrl: task.sourceUrl, slug });
    return false;
  });
}

/**
 * Sends one batch. The endpoint refuses the whole request when one URL is invalid, naming it
 * (`tasks.<i>.sourceUrl: …`); those are counted as failed and the rest is sent again.
 */
async function sendBatch(
  ctx: CommandContext,
  batch: { item: InputItem; task: TaskInput }[],
  summary: AddTasksSummary,
  fail: (f: Failure) => void,
): Promise<void> {
  let pending = batch;
  while (pending.length > 0) {
    try {
      const result = await ctx.client.tasks.create({ tasks: pending.map((p) => p.task) });
      summary.created += result.created;
      summary.skipped += result.skipped;
      summary.total += result.total;
      return;
    } catch (err) {
      const named =
        err instanceof DirectoryError && err.status === 400 ? itemMessages(err.details) : undefined;
      if (!named || [...named.keys()].some((i) => i >= pending.length)) throw err;
      for (const [i, messages] of named) {
        const { item, task } = pending[i]!;
        fail({ index: item.index, line: item.line, sourceUrl: task.sourceUrl, error: messages.join('; ') });
      }
      pending = pending.filter((_, i) => !named.has(i));
    }
  }
}

/** The items a 400's details name, or undefined when one detail names none (dropping items cannot fix it). */
function itemMessages(details: string[]): Map<number, string[]> | undefined {
  if (details.length === 0) return undefined;
  const named = new Map<number, string[]>();
  for (const detail of details) {
    const match = ITEM_DETAIL.exec(detail);
    if (!match) return undefined;
    const i = Number(match[1]);
    named.set(i, [...(named.get(i) ?? []), match[2]!]);
  }
  return named;
}
