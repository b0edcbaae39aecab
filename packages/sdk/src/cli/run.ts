import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
// The client module, not the package index: the index also loads the tRPC client, which the CLI
// does not need (a faster start, and a self-contained dist/cli.js).
import { createDirectoryClient } from '../client.ts';
import { DirectoryError } from '../errors.ts';
import { UNREADABLE } from '../transport.ts';
import { type Command, parseInvocation, stringOption } from './args.ts';
import { addTasks } from './commands/add-tasks.ts';
import { changes } from './commands/changes.ts';
import { checkUrls } from './commands/check-urls.ts';
import { createKey } from './commands/create-key.ts';
import { mergeTag, renameTag, unmergeTag } from './commands/curate-tags.ts';
import { deleteProject } from './commands/delete-project.ts';
import { diffRevisions } from './commands/diff-revisions.ts';
import { exportProjects } from './commands/export-projects.ts';
import { getOwnKey } from './commands/get-own-key.ts';
import { getProject } from './commands/get-project.ts';
import { history } from './commands/history.ts';
import { importProjects } from './commands/import-projects.ts';
import { listDuplicates } from './commands/list-duplicates.ts';
import { listKeys } from './commands/list-keys.ts';
import { listTags } from './commands/list-tags.ts';
import { listTasks } from './commands/list-tasks.ts';
import { lockProject, unlockProject } from './commands/lock-project.ts';
import { mergeProjects } from './commands/merge-projects.ts';
import { relatedProjects } from './commands/related-projects.ts';
import { revertProject } from './commands/revert-project.ts';
import { revokeKey } from './commands/revoke-key.ts';
import { rotateKey } from './commands/rotate-key.ts';
import { searchPins } from './commands/search-pins.ts';
import { searchProjects } from './commands/search-projects.ts';
import { taskStats } from './commands/task-stats.ts';
import { work } from './commands/work.ts';
import type { CliIo, CommandContext } from './context.ts';
import { describeError, EXIT_OK, EXIT_UNUSABLE, UsageError, unreadableAnswer } from './errors.ts';
import { commandHelp, generalHelp, groupHelp } from './usage.ts';

export type { CliIo } from './context.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** In the order `directory --help` lists them. */
export const COMMANDS: Command[] = [
  importProjects,
  exportProjects,
  searchProjects,
  searchPins,
  listTags,
  renameTag,
  mergeTag,
  unmergeTag,
  addTasks,
  listTasks,
  taskStats,
  work,
  checkUrls,
  getProject,
  deleteProject,
  relatedProjects,
  listDuplicates,
  mergeProjects,
  history,
  diffRevisions,
  revertProject,
  lockProject,
  unlockProject,
  changes,
  createKey,
  listKeys,
  revokeKey,
  rotateKey,
  getOwnKey,
];

/** The whole CLI: parses `argv`, runs the command against `io`, and resolves to the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  // The server's own PORT, as `PORT=4000 pnpm start` and then `pnpm -s directory …` in one shell.
  let baseUrl = io.env.DIRECTORY_URL || (io.env.PORT ? `http://127.0.0.1:${io.env.PORT}` : DEFAULT_BASE_URL);
  // the last request sent: named when its answer cannot be read
  let lastCall: string | undefined;
  let keyFrom: string | undefined;
  const fetchFn = io.fetch ?? globalThis.fetch;
  const fetch: typeof globalThis.fetch = (input, init) => {
    lastCall = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
    return fetchFn(input, init);
  };
  try {
    const invocation = parseInvocation(argv, COMMANDS);
    if (invocation.kind === 'help') {
      const { command, group } = invocation;
      io.stdout.write(
        command ? commandHelp(command) : group ? groupHelp(group, COMMANDS) : generalHelp(COMMANDS),
      );
      return EXIT_OK;
    }
    const { command, positionals, values } = invocation;
    baseUrl = stringOption(values, 'base-url') ?? baseUrl;
    if (!isHttpUrl(baseUrl)) {
      throw new UsageError(`the base URL must be an http(s) URL, got '${baseUrl}'`, command.name);
    }
    // An empty variable counts as unset; the key itself is never printed.
    // the server's variable name, or the CLI's own (which wins when both are set)
    const stored = storedKey(io, baseUrl);
    const apiKey =
      stringOption(values, 'api-key') ?? (io.env.DIRECTORY_API_KEY || io.env.WEBHOOK_API_KEY || stored?.key);
    // where it came from, said when the service refuses it (never the key itself)
    keyFrom =
      stringOption(values, 'api-key') !== undefined
        ? '--api-key'
        : io.env.DIRECTORY_API_KEY
          ? 'DIRECTORY_API_KEY'
          : io.env.WEBHOOK_API_KEY
            ? 'WEBHOOK_API_KEY'
            : stored?.path;
    const ctx: CommandContext = {
      io,
      // DIRECTORY_ACTOR: who is writing, recorded on the revisions the service stores
      client: createDirectoryClient({
        baseUrl,
        apiKey,
        actor: io.env.DIRECTORY_ACTOR || undefined,
        summary: stringOption(values, 'summary'),
        fetch,
        ...(values['no-retry'] === true && { retries: 0 }),
        // a pause the service asked for (429, 503) is never silent: what failed, how long, and how
        // not to wait (the quick retries after a 5xx or a lost connection say nothing until they give up)
        onWait: (wait) =>
          (wait.error.status === 429 || wait.error.status === 503) &&
          io.stderr.write(
            `waiting ${wait.ms % 1000 === 0 ? wait.ms / 1000 : (wait.ms / 1000).toFixed(1)} s before sending ${wait.call} again ` +
              `(try ${wait.attempt} of ${wait.attempts}): ${describeError(wait.error, baseUrl)} (--no-retry fails at once)\n`,
          ),
      }),
      baseUrl,
      json: values.json === true,
      positionals,
      values,
      print: (line = '') => io.stdout.write(`${line}\n`),
      warn: (line) => io.stderr.write(`${line}\n`),
    };
    return await command.run(ctx);
  } catch (err) {
    // a reply of another shape than the command reads (another server, another version)
    const unreadable =
      (err instanceof TypeError || (err instanceof DirectoryError && err.error === UNREADABLE)) &&
      lastCall !== undefined;
    io.stderr.write(
      `error: ${unreadable ? unreadableAnswer(lastCall as string, baseUrl, err) : describeError(err, baseUrl, keyFrom)}\n`,
    );
    if (io.env.DIRECTORY_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT_UNUSABLE;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The key a server on this machine generated and keeps in its data directory, when no key is
 * set: `data/api-key` from the working directory (the repository, under `pnpm directory`), or
 * `<dir>/api-key` for `DATABASE_URL=pglite:<dir>`, as the server itself resolves it. Never for
 * a server on another host, which must not be sent this machine's key.
 */
function storedKey(io: CliIo, baseUrl: string): { key: string; path: string } | undefined {
  if (!LOOPBACK.has(new URL(baseUrl).hostname)) return undefined;
  const database = io.env.DATABASE_URL || 'pglite:./data';
  if (!database.startsWith('pglite:')) return undefined;
  const path = resolve(io.cwd ?? process.cwd(), database.slice(7), 'api-key');
  try {
    const key = readFileSync(path, 'utf8').trim();
    return key ? { key, path } : undefined;
  } catch {
    return undefined;
  }
}

function isHttpUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
}
