import { LOCK_FIELDS, type LockFieldName } from '@directory/core/lock-fields';
import { type Command, stringOption } from '../args.ts';
import { printJson } from '../context.ts';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../errors.ts';
import { orFailed } from './history.ts';

const FIELDS: readonly string[] = LOCK_FIELDS;

export const lockProject: Command = {
  name: 'lock',
  summary: "Keep a project's fields from being replaced by upserts and completes",
  synopsis: 'lock <slug> [fields…] [--reason <text>]',
  help: `
An upsert or a complete that updates the project afterwards keeps the locked fields and replaces
the others (its reply lists them in 'kept'). Fields: ${FIELDS.join(', ')};
none given locks them all. A lock replaces the project's earlier lock. 'directory unlock <slug>'
removes it. Exit 1 for an unknown slug.

Options:
  --reason <text>  why (shown with the lock)

With --json, stdout is the service's reply { success, data, revision }.

Example:
  directory lock qwen name nameEn tags links --reason "curated by the editors"`,
  options: { reason: { type: 'string' } },
  args: { min: 1, max: 1 + FIELDS.length },

  async run(ctx) {
    const [slug, ...fields] = ctx.positionals as [string, ...string[]];
    const unknown = fields.find((f) => !FIELDS.includes(f));
    if (unknown) throw new UsageError(`unknown field '${unknown}'; fields: ${FIELDS.join(', ')}`, 'lock');
    const reason = stringOption(ctx.values, 'reason');
    const reply = await orFailed(ctx.warn, () =>
      ctx.client.projects.lock({
        slug,
        fields: fields.length ? (fields as LockFieldName[]) : '*',
        ...(reason !== undefined && { reason }),
      }),
    );
    if (!reply) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    ctx.print(`Locked ${slug}: ${reply.data.lock?.fields.join(', ')}${reason ? ` (${reason})` : ''}`);
    return EXIT_OK;
  },
};

export const unlockProject: Command = {
  name: 'unlock',
  summary: "Remove a project's lock",
  synopsis: 'unlock <slug>',
  help: `
Upserts and completes replace every field of the project again. Exit 1 for an unknown slug.

With --json, stdout is the service's reply { success, data, revision }.

Example:
  directory unlock qwen`,
  options: {},
  args: { min: 1, max: 1 },

  async run(ctx) {
    const [slug] = ctx.positionals as [string];
    const reply = await orFailed(ctx.warn, () => ctx.client.projects.unlock({ slug }));
    if (!reply) return EXIT_FAILED;
    if (ctx.json) {
      printJson(ctx, reply);
      return EXIT_OK;
    }
    ctx.print(reply.revision === null ? `${slug} was not locked` : `Unlocked ${slug}`);
    return EXIT_OK;
  },
};
