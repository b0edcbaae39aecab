import { type Command, GLOBAL_HELP } from './args.ts';

/** `directory --help`: every command with its one-line summary. */
export function generalHelp(commands: Command[], group = ''): string {
  const width = Math.max(...commands.map((c) => c.synopsis.length));
  const lines = commands.map((c) => `  ${c.synopsis.padEnd(width)}  ${c.summary}`);
  return `Usage: directory ${group ? `${group} ` : ''}<command> [options]

A command line for the Project Directory service.

Commands:
${lines.join('\n')}

${GLOBAL_HELP}

Exit codes: 0 ok; 1 some items failed or the record does not exist;
2 usage error, unreadable input, or the service unreachable / refusing the key / failing.

Run 'directory ${group ? `${group} ` : ''}<command> --help' for a command's options.
`;
}

/** `directory tasks --help`: the commands of one group. */
export function groupHelp(group: string, commands: Command[]): string {
  return generalHelp(
    commands.filter((c) => c.name.startsWith(`${group} `)),
    group,
  );
}

export function commandHelp(command: Command): string {
  return `Usage: directory ${command.synopsis}

${command.summary}

${command.help.trim()}

${GLOBAL_HELP}
`;
}
