import { DirectoryError } from '../errors.ts';

/** The command line itself is wrong (unknown command or option, missing argument): exit 2. */
export class UsageError extends Error {
  /** The command whose `--help` explains the fix, e.g. 'tasks add'. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** The input file or stdin cannot be read or is not JSON at all: exit 2, nothing was sent for it. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export const EXIT_OK = 0;
/** Some items failed, or the one record asked for does not exist. */
export const EXIT_FAILED = 1;
/** Nothing useful could be done: usage error, unreadable input, unreachable server, 401, 5xx. */
export const EXIT_UNUSABLE = 2;

/** More than this many details make one line unreadable; the rest are counted. */
const MAX_DETAILS = 5;

/** One line for stderr that says what went wrong; never a stack trace, never the API key. */
export function describeError(err: unknown, baseUrl: string, keyFrom?: string): string {
  if (err instanceof UsageError) {
    if (err.command === undefined) return err.message;
    return `${err.message} (see 'directory ${err.command ? `${err.command} ` : ''}--help')`;
  }
  if (err instanceof DirectoryError) {
    // status 0: no reply at all (refused, DNS, timeout); say where we were trying to go.
    if (err.status === 0) {
      return err.message.includes(baseUrl)
        ? `cannot reach the service: ${err.message}`
        : `cannot reach ${baseUrl}: ${err.message}`;
    }
    const shown = err.details.slice(0, MAX_DETAILS);
    const more = err.details.length - shown.length;
    const details = shown.length ? `: ${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}` : '';
    const hint =
      err.status !== 401
        ? ''
        : keyFrom === undefined
          ? ' (set WEBHOOK_API_KEY or DIRECTORY_API_KEY, or pass --api-key)'
          : ` (the key sent came from ${keyFrom}; ${baseUrl} refused it: set DIRECTORY_API_KEY or pass --api-key)`;
    return `${err.status} ${err.error}${details}${hint}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** A reply that is not what the command reads: say which request, never the reading's own error. */
export function unreadableAnswer(call: string, baseUrl: string, err: unknown): string {
  // the transport's reason (`GET /path: not a JSON object`) after the call it names
  const reason = err instanceof DirectoryError ? err.details[0]?.replace(/^\S+ \S+: /, '') : undefined;
  return `the answer of ${call} from ${baseUrl} could not be read${reason ? ` (${reason})` : ''}; is it a Directory service of this CLI's version?`;
}

export const isNotFound = (err: unknown): err is DirectoryError =>
  err instanceof DirectoryError && err.status === 404;
