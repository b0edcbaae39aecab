import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CommandContext, OptionValues } from './context.ts';
import { UsageError } from './errors.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  /** The words that name it: ['import'], ['tasks', 'add']. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis after `directory`, e.g. 'get <slug>'. */
  synopsis: string;
  /** Help text after the synopsis: what it does, its options, an example. */
  help: string;
  options: OptionSpec;
  /** How many positional arguments it takes. */
  args: { min: number; max: number };
  run(ctx: CommandContext): Promise<number>;
}

/** Accepted by every command. */
export const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  'no-retry': { type: 'boolean' },
  summary: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec;

export const GLOBAL_HELP = `Global options:
  --base-url <url>   the service (env DIRECTORY_URL, else http://127.0.0.1:$PORT, else http://127.0.0.1:3000)
  --api-key <key>    the API key (env DIRECTORY_API_KEY or WEBHOOK_API_KEY; prefer a variable: flags show
                     in ps); with none, for a server on this machine, the key it keeps in data/api-key
                     (<dir>/api-key for DATABASE_URL=pglite:<dir>), read from the working directory
  --json             machine-readable output on stdout
  --no-retry         fail at once on a 429, a 503 or a lost connection (by default the CLI waits and
                     tries again, up to 3 times, saying on stderr what it waits for)
  --summary <text>   why: recorded as the summary of the revisions a write stores (up to 500 characters)
  -h, --help         this help
Set DIRECTORY_ACTOR to a name (yours, or the program's) to have it recorded on the revisions your
writes store; DIRECTORY_DEBUG=1 to add the stack trace to an error.`;

export type Invocation =
  | { kind: 'help'; command: Command | undefined; group: string | undefined }
  | { kind: 'run'; command: Command; positionals: string[]; values: OptionValues };

/**
 * Finds the command named by the first positional words, then parses the remaining arguments
 * strictly against that command's options. Options may come before or after the command words,
 * so the words are located with a lenient pass over every known option first (a value such as
 * `--base-url http://x` must not be taken for a command).
 */
export function parseInvocation(argv: string[], commands: Command[]): Invocation {
  const allOptions: OptionSpec = { ...GLOBAL_OPTIONS };
  for (const c of commands) Object.assign(allOptions, c.options);
  const { tokens } = parseArgs({
    args: argv,
    options: allOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const words = tokens.filter((t) => t.kind === 'positional');
  const wantsHelp = tokens.some((t) => t.kind === 'option' && t.name === 'help');

  let first = words[0]?.value;
  let helpTopic = false;
  if (first === 'help') {
    // `directory help tasks add` is `directory tasks add --help`.
    helpTopic = true;
    words.shift();
    first = words[0]?.value;
  }
  if (first === undefined) {
    if (helpTopic || wantsHelp) return { kind: 'help', command: undefined, group: undefined };
    throw new UsageError('missing command', '');
  }

  const groups = new Set(commands.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]));
  let used = 1;
  let name = first;
  // a group may also be a command itself (`tags [<q>]` beside `tags rename`): a word after it that
  // names no subcommand is that command's argument
  const sub = words[1]?.value;
  const plain = commands.some((c) => c.name === first);
  const known = sub !== undefined && commands.some((c) => c.name === `${first} ${sub}`);
  if (groups.has(first) && (known || !plain)) {
    if (sub === undefined || sub === 'help') {
      if (helpTopic || wantsHelp || sub === 'help') return { kind: 'help', command: undefined, group: first };
      throw new UsageError(`missing subcommand for '${first}'`, first);
    }
    name = `${first} ${sub}`;
    used = 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    throw new UsageError(`unknown command '${name}'`, groups.has(first) ? first : '');
  }
  if (helpTopic || wantsHelp) return { kind: 'help', command, group: undefined };

  const skip = new Set(words.slice(0, used).map((t) => t.index));
  const rest = argv.filter((_, i) => !skip.has(i));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    // Node's messages go on about '--' escapes; the first sentence is the useful part.
    const message = err instanceof Error ? (err.message.split('. ')[0] ?? err.message) : String(err);
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1), command.name);
  }
  const { positionals } = parsed;
  if (positionals.length < command.args.min) {
    throw new UsageError(`missing argument: directory ${command.synopsis}`, command.name);
  }
  if (positionals.length > command.args.max) {
    throw new UsageError(`unexpected argument '${positionals[command.args.max]}'`, command.name);
  }
  return { kind: 'run', command, positionals, values: parsed.values as OptionValues };
}

/** A non-negative integer option, or undefined when absent. */
export function intOption(values: OptionValues, name: string, command: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) {
    throw new UsageError(`--${name} must be a non-negative integer, got '${raw}'`, command);
  }
  return Number(raw);
}

export const stringOption = (values: OptionValues, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
};
