import type { DirectoryClient } from '../index.ts';

/** Where output goes; a subset of a Node stream so tests can pass plain objects. */
export interface Output {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Everything the CLI touches outside itself, so `run` works in-process as well as from cli.ts. */
export interface CliIo {
  stdin: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  stdout: Output;
  stderr: Output;
  env: Record<string, string | undefined>;
  /** Where relative paths start (the key file data/api-key); default process.cwd(). */
  cwd?: string;
  /** Aborts at SIGTERM or SIGINT; asked for only by the commands that stop gracefully (work). */
  stopSignal?: () => AbortSignal;
  /** Replaces global fetch (tests). */
  fetch?: typeof globalThis.fetch;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandContext {
  io: CliIo;
  client: DirectoryClient;
  baseUrl: string;
  /** --json: machine output on stdout, nothing else there. */
  json: boolean;
  positionals: string[];
  values: OptionValues;
  /** A line of the result on stdout. */
  print(line?: string): void;
  /** A line of diagnostics on stderr. */
  warn(line: string): void;
}

/** Prints `value` as the command's whole stdout in --json mode. */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
