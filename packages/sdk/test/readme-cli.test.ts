import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/run.ts';

/** Issue 20.6: the README's table of CLI commands names every command `directory --help` lists. */
const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** The first column of the table in the section "CLI: `directory`", command words only. */
function tableCommands(): string[] {
  const section = README.split(/^### CLI: `directory`$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([a-z]+(?: [a-z]+)?)/g)].map((m) => m[1] as string),
  );
}

describe('the README CLI table', () => {
  it('lists every command of directory --help, in its order', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(tableCommands()).toEqual(names);
  });
});
