import type { Command } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../errors.ts';
import { orFailed } from './history.ts';

const revisionArg = (value: string | undefined, what: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`${what} must be a revision number (1, 2, …), got '${value}'`, 'diff');
  return Number(value);
};

/** A value as diff lines: each line of a text, or the JSON of anything else. */
const linesOf = (value: unknown): string[] =>
  value === null || value === undefined
    ? ['(none)']
    : typeof value === 'string'
      ? value.split('\n')
      : [JSON.stringify(value)];

export const diffRevisions: Command = {
  name: 'diff',
  summary: 'What changed between two revisions of a project',
  synopsis: 'diff <slug> [n] [m]',
  help: `
From revision m to revision n: each changed field with its old lines (-) and new lines (+), then
the tags and links removed (-) and added (+). n defaults to the latest revision, m to the one
before n. Coloured on a terminal (red -, green +) unless NO_COLOR is set. Exit 1 for an unknown
slug or revision.

With --json, stdout is the service's reply { success, revision, against, changed, tags, links }.

Example:
  directory diff qwen          # the latest change
  directory diff qwen 5 1      # everything since revision 1`,
  options: {},
  args: { min: 1, max: 3 },

  async run(ctx) {
    const [slug, n, m] = ctx.positionals as [string, string | undefined, string | undefined];
    let revision = revisionArg(n, 'n');
    const against = revisionArg(m, 'm');
    if (revision === undefined) {
      const latest = await orFailed(ctx.warn, () => ctx.client.projects.revisions({ slug, limit: 1 }));
      if (!latest) return EXIT_FAILED;
      revision = latest.revisions[0]?.revision ?? 1;
    }
    const to = revision;
    const diff = await orFailed(ctx.warn, () =>
      ctx.client.projects.diff({ slug, revision: to, ...(against !== undefined && { against }) }),
    );
    if (!diff) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, diff);
      return EXIT_OK;
    }
    const colour = ctx.io.stdout.isTTY === true && !ctx.io.env.NO_COLOR;
    const paint = (code: number, s: string) => (colour ? `\u001b[${code}m${s}\u001b[0m` : s);
    const removed = (s: string) => paint(31, `- ${s}`);
    const added = (s: string) => paint(32, `+ ${s}`);
    ctx.print(paint(1, `${slug}: revision ${diff.revision} against ${diff.against ?? 'nothing'}`));
    for (const [field, { from, to: value }] of Object.entries(diff.changed)) {
      ctx.print(`${field}:`);
      for (const line of linesOf(from)) ctx.print(`  ${removed(line)}`);
      for (const line of linesOf(value)) ctx.print(`  ${added(line)}`);
    }
    const tag = (t: { name: string; nameEn: string | null; slug: string }) =>
      `${t.name}${t.nameEn ? ` / ${t.nameEn}` : ''} (${t.slug})`;
    if (diff.tags.added.length + diff.tags.removed.length > 0) {
      ctx.print('tags:');
      for (const t of diff.tags.removed) ctx.print(`  ${removed(tag(t))}`);
      for (const t of diff.tags.added) ctx.print(`  ${added(tag(t))}`);
    }
    const link = (l: { type: string; url: string; title: string | null }) =>
      `${l.type} ${l.url}${l.title ? ` ${JSON.stringify(l.title)}` : ''}`;
    if (diff.links.added.length + diff.links.removed.length > 0) {
      ctx.print('links:');
      for (const l of diff.links.removed) ctx.print(`  ${removed(link(l))}`);
      for (const l of diff.links.added) ctx.print(`  ${added(link(l))}`);
    }
    if (
      Object.keys(diff.changed).length +
        diff.tags.added.length +
        diff.tags.removed.length +
        diff.links.added.length +
        diff.links.removed.length ===
      0
    )
      ctx.print('(no differences)');
    return EXIT_OK;
  },
};
