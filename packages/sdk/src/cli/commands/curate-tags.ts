import { type Command, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../errors.ts';
import { orFailed } from './history.ts';

const names = (t: { name: string; nameEn: string | null; slug: string }) =>
  `${t.name}${t.nameEn ? ` / ${t.nameEn}` : ''} (${t.slug})`;

export const renameTag: Command = {
  name: 'tags rename',
  summary: 'Rename a tag: its name, its English name, or both (the slug stays)',
  synopsis: 'tags rename <slug> [--name <name>] [--name-en <name>]',
  help: `
Needs a key with curate. Every project with the tag shows the new names at once. Exit 1 for an
unknown slug, a merged tag, or a name another tag already has (merge the two instead).

Options:
  --name <name>      the new (Chinese) name
  --name-en <name>   the new English name

With --json, stdout is the service's reply { success, tag }.

Example:
  directory tags rename llm --name-en "Large language models"`,
  options: { name: { type: 'string' }, 'name-en': { type: 'string' } },
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [slug] = ctx.positionals as [string];
    const name = stringOption(ctx.values, 'name');
    const nameEn = stringOption(ctx.values, 'name-en');
    if (name === undefined && nameEn === undefined)
      throw new UsageError('give --name, --name-en or both', 'tags rename');
    const reply = await orFailed(ctx.warn, () =>
      ctx.client.tags.rename({
        slug,
        ...(name !== undefined && { name }),
        ...(nameEn !== undefined && { nameEn }),
      }),
    );
    if (!reply) return EXIT_FAILED;
    if (ctx.json) printJson(ctx, reply);
    else ctx.print(`Renamed ${reply.tag.slug}: ${names(reply.tag)}`);
    return EXIT_OK;
  },
};

export const mergeTag: Command = {
  name: 'tags merge',
  summary: 'Merge a tag into another; its slug and names stay as an alias',
  synopsis: 'tags merge <from> <into>',
  help: `
Needs a key with curate. Every project tagged <from> gets <into> in its place (its tag order kept,
no tag twice) and one revision; <from> becomes an alias of <into>: a filter by it, and a write
naming it, give <into>. Exit 1 for an unknown slug, <into> being <from> or one of its aliases, or
<from> merged into another tag already.

With --json, stdout is the service's reply { success, tag, merged, projectsChanged }.

Example:
  directory tags merge llm-2 llm`,
  options: {},
  args: { min: 2, max: 2 },

  async run(ctx) {
    const [slug, into] = ctx.positionals as [string, string];
    const reply = await orFailed(ctx.warn, () => ctx.client.tags.merge({ slug, into }));
    if (!reply) return EXIT_FAILED;
    if (ctx.json) printJson(ctx, reply);
    else
      ctx.print(
        `Merged ${reply.merged} into ${names(reply.tag)}: ${reply.projectsChanged} project(s) changed; ` +
          `aliases: ${reply.tag.aliases.join(', ')}`,
      );
    return EXIT_OK;
  },
};

export const unmergeTag: Command = {
  name: 'tags unmerge',
  summary: 'Undo the merge of a tag: the alias is its own tag again',
  synopsis: 'tags unmerge <slug>',
  help: `
Needs a key with curate. <slug> is a tag merged into another (an alias). It becomes a tag of its
own again, with its names and the aliases it had, and the projects the merge moved get their tags
back as before it, one revision each; a project changed since the merge keeps its tags and is
listed as skipped. Exit 1 for an unknown slug, a tag that is not merged, a merge made before merges
were recorded, or names another tag took since.

With --json, stdout is the service's reply { success, tag, from, projectsChanged, skipped }.

Example:
  directory tags unmerge llm-2`,
  options: {},
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [slug] = ctx.positionals as [string];
    const reply = await orFailed(ctx.warn, () => ctx.client.tags.unmerge({ slug }));
    if (!reply) return EXIT_FAILED;
    if (ctx.json) printJson(ctx, reply);
    else {
      ctx.print(
        `Unmerged ${names(reply.tag)} from ${reply.from.slug}: ${reply.projectsChanged} project(s) changed`,
      );
      for (const s of reply.skipped) ctx.print(`  skipped ${s.slug}: ${s.reason}`);
    }
    return EXIT_OK;
  },
};
