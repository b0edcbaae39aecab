import { DirectoryError } from '../../errors.ts';
import { type Command, intOption, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK } from '../errors.ts';
import { shortTime, table } from '../format.ts';

/** 404 and 409 are the caller's answer (exit 1, the service's message); anything else is thrown. */
export async function orFailed<T>(
  warn: (line: string) => void,
  call: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof DirectoryError) || (err.status !== 404 && err.status !== 409)) throw err;
    warn(`error: ${err.details[0] ?? err.message}`);
    return undefined;
  }
}

export const history: Command = {
  name: 'history',
  summary: "A project's revisions, newest first",
  synopsis: 'history <slug> [options]',
  help: `
One line per write of the project: its number, when, what (created, updated, deleted), by which
path (upsert, complete, merge, revert, restore, delete, lock), who (the X-Directory-Actor of the
request: set DIRECTORY_ACTOR for this CLI's writes), the source and the task. A merge is a line
of the project kept, its name followed by the slugs merged in. A deleted project's history is
still shown by its slug; a merged slug shows the history of the project it went into. A WARNING
column, when a revision of the page has one, says why that write may have been wrong (an upsert
found the project by slug only while their links differ). Exit 1 for an unknown slug.

Options:
  --limit <N>      revisions per page, 1-100 (default 20)
  --cursor <C>     the page after the one that printed this cursor

With --json, stdout is the service's reply { success, revisions, nextCursor }.

Example:
  directory history qwen
  directory diff qwen 2 1`,
  options: { limit: { type: 'string' }, cursor: { type: 'string' } },
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [slug] = ctx.positionals as [string];
    const cursor = stringOption(ctx.values, 'cursor');
    const page = await orFailed(ctx.warn, () =>
      ctx.client.projects.revisions({
        slug,
        limit: intOption(ctx.values, 'limit', 'history'),
        ...(cursor !== undefined && { cursor }),
      }),
    );
    if (!page) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, page);
      return EXIT_OK;
    }
    const summaries = page.revisions.some((r) => r.summary !== null);
    const warned = page.revisions.some((r) => r.warnings !== undefined);
    const rows = page.revisions.map((r) => [
      String(r.revision),
      shortTime(r.at),
      r.action,
      r.via,
      r.actor ?? '-',
      r.source ?? '-',
      r.taskId ?? '-',
      r.merged ? `${r.name} (merged in: ${r.merged.join(', ')})` : r.name,
      // why (X-Directory-Summary), a column only when a revision of the page has one
      ...(summaries ? [r.summary ?? '-'] : []),
      // an upsert that may be wrong (docs/curation.md#updates-that-may-be-wrong)
      ...(warned ? [r.warnings?.join('; ') ?? '-'] : []),
    ]);
    const head = [
      'REV',
      'AT',
      'ACTION',
      'VIA',
      'ACTOR',
      'SOURCE',
      'TASK',
      'NAME',
      ...(summaries ? ['SUMMARY'] : []),
      ...(warned ? ['WARNING'] : []),
    ];
    for (const line of table(head, rows)) ctx.print(line);
    if (page.nextCursor) ctx.print(`(older: --cursor ${page.nextCursor})`);
    return EXIT_OK;
  },
};
