import type { ProjectInput } from '../../index.ts';
import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { byIndex, type Failure, failureLines } from '../format.ts';
import { openSource, readItems } from '../input.ts';
import { createProgress, plural } from '../progress.ts';
import { runRestore } from '../restore.ts';

const BATCH_SIZE = 100;

export interface ImportSummary {
  processed: number;
  created: number;
  updated: number;
  failed: number;
  errors: Failure[];
  /**
   * Every project created or updated, with its slug (index = position in the input), and the warnings of
   * an update that may be wrong (docs/curation.md#updates-that-may-be-wrong), when it has any.
   */
  results: { index: number; action: 'created' | 'updated'; slug: string; warnings?: string[] }[];
}

export const importProjects: Command = {
  name: 'import',
  summary: 'Create or update projects from a JSON or NDJSON file, 100 per request; --restore an export',
  synopsis: 'import [--restore] <file.json|file.ndjson|->',
  help: `
Input: a JSON array of projects, an object { "projects": [...] }, or NDJSON (one project per
line; blank lines are skipped). '-' reads stdin. The format is told from the content (a
.ndjson or .jsonl file is always NDJSON). A line that is not JSON, or a project the service
refuses, is reported as failed with its index (and line) and does not stop the others.

Progress goes to stderr, one line per batch (redrawn in place on a terminal):
  batch 2 of 7: 100 items, 200 of 700 done: 200 created, 0 updated, 0 failed
(the batch just sent and its size, then the records done of the whole input; the "of" figures
only when the input's size is known: a file, not stdin read as lines). The summary, with every
failure, goes to stdout; a project updated although it may be the wrong one (found by slug only
while its CODEHOST/WEBSITE links differ from the stored project's) has its warning on its line.
Exit 1 when any item failed.

With --restore, FILE is an export (GET /api/export?format=ndjson) written back into an EMPTY
directory as the same projects: ids, slugs, aliases, tags, links, times kept, no upsert
(docs/operating.md#restore-from-an-export; needs a keys:admin key). The whole file is checked
first, and a bad line restores nothing; then it is written 500 projects per request. A run
that stops leaves the restore unfinished: run the same command again to resume it.

Options:
  --restore          restore an export into an empty directory (a file, not stdin)
  --quiet            no progress output

Example:
  DIRECTORY_API_KEY=... directory import projects.ndjson
  DIRECTORY_API_KEY=<admin key> directory import --restore export.ndjson`,
  options: { quiet: { type: 'boolean' }, restore: { type: 'boolean' } },
  args: { min: 1, max: 1 },

  async run(ctx) {
    if (ctx.values.restore === true) return runRestore(ctx, ctx.positionals[0]!);
    const source = await openSource(ctx.positionals[0]!, ctx.io.stdin);
    if (source.name === 'stdin' && ctx.io.stdin.isTTY)
      ctx.warn('reading projects from the terminal; end with Ctrl-D');
    const reader = await readItems(source, { wrapperKey: 'projects' });

    // Unreadable lines and non-objects never reach upsertAll, so its indexes count sent items
    // only; these map them back to input positions and lines.
    const sentIndex: number[] = [];
    const sentLine: (number | undefined)[] = [];
    const notSent: Failure[] = [];
    async function* projects(): AsyncGenerator<ProjectInput> {
      for await (const item of reader.items) {
        const error = item.error ?? (isObject(item.value) ? undefined : 'expected a project object');
        if (error !== undefined) {
          notSent.push({ index: item.index, line: item.line, error });
          continue;
        }
        sentIndex.push(item.index);
        sentLine.push(item.line);
        // The service checks each project's fields and reports the bad ones; no second copy of its rules here.
        yield item.value as ProjectInput;
      }
    }

    const progress = createProgress(ctx.io.stderr, ctx.values.quiet !== true);
    let sofar = { batches: 0, created: 0, updated: 0, failed: 0 };
    let totals: Awaited<ReturnType<typeof ctx.client.projects.upsertAll>>;
    try {
      totals = await ctx.client.projects.upsertAll(projects(), {
        batchSize: BATCH_SIZE,
        onBatch(p) {
          sofar = {
            batches: p.batch,
            created: p.created,
            updated: p.updated,
            failed: p.failed + notSent.length,
          };
          progress.update({
            batch: p.batch,
            batchItems: p.items,
            done: p.processed + notSent.length,
            total: reader.total,
            batchSize: BATCH_SIZE,
            counts: { created: p.created, updated: p.updated, failed: sofar.failed },
            fraction: reader.fraction(),
          });
        },
      });
    } catch (err) {
      progress.done();
      // What was written stays written; say how far it got before the error line.
      if (sofar.batches > 0) {
        ctx.warn(
          `stopped after ${plural(sofar.batches, 'batch', 'batches')}: ${sofar.created} created, ${sofar.updated} updated, ${sofar.failed} failed`,
        );
      }
      throw err;
    }
    progress.done();

    const errors: Failure[] = [
      ...totals.errors.map((e) => ({
        index: sentIndex[e.index] ?? e.index,
        line: sentLine[e.index],
        name: e.name || undefined,
        error: e.error,
      })),
      ...notSent,
    ].sort(byIndex);
    const summary: ImportSummary = {
      processed: totals.processed + notSent.length,
      created: totals.created,
      updated: totals.updated,
      failed: totals.failed + notSent.length,
      errors,
      results: totals.written.map((w) => ({
        index: sentIndex[w.index] ?? w.index,
        action: w.action,
        slug: w.slug,
        ...(w.warnings && { warnings: w.warnings }),
      })),
    };

    if (ctx.json) {
      printJson(ctx, summary);
    } else {
      for (const r of summary.results)
        ctx.print(
          `${r.action.padEnd(7)}  ${r.slug}${r.warnings ? `  (warning: ${r.warnings.join('; ')})` : ''}`,
        );
      ctx.print(
        `${plural(summary.processed, 'project', 'projects')} processed: ${summary.created} created, ${summary.updated} updated, ${summary.failed} failed`,
      );
      if (errors.length > 0) {
        ctx.print('Failed:');
        for (const line of failureLines(errors)) ctx.print(line);
      }
    }
    return summary.failed > 0 ? EXIT_FAILED : EXIT_OK;
  },
};

/**
 * Only objects are sent: the service names a non-object item in a 400 without a field path
 * (`projects.3: …`), which the SDK cannot attribute to one item, so it would fail the batch.
 */
const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
