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

/** Issue 20.5: the README shows the example files as they are, and they run as printed. */
describe('the README examples', () => {
  const blockAfter = (marker: string) => {
    const at = README.indexOf(marker);
    expect(at).toBeGreaterThan(-1);
    return /```ts\n([\s\S]*?)```/.exec(README.slice(at))?.[1];
  };
  const file = (name: string) =>
    readFileSync(fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url)), 'utf8');

  it('show examples/sdk-example.mts and examples/trpc-example.mts as they are', () => {
    expect(blockAfter('`examples/sdk-example.mts` (below)')).toBe(file('sdk-example.mts'));
    expect(blockAfter('`examples/trpc-example.mts` (below)')).toBe(file('trpc-example.mts'));
  });

  it('need no key of their own and no server of their own: the first command’s server and data/api-key', () => {
    const outsideSearch = README.replace(/^## Browsing and search[\s\S]*?(?=^## )/m, '');
    expect(outsideSearch).not.toMatch(/WEBHOOK_API_KEY=dev|API_KEY=dev|KEY=dev\b|WEBHOOK_API_KEY=k\b/);
    expect(outsideSearch).not.toMatch(/DATABASE_URL=memory: pnpm start/);
  });
});
