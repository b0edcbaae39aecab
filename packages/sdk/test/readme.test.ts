import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/run.ts';

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
const README = read('README.md');
/** The four ways to use it in full, with the CLI's table of commands and the SDK's examples. */
const GETTING_STARTED = read('docs/getting-started.md');
const DOCS = readdirSync(fileURLToPath(new URL('../../../docs/', import.meta.url)))
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ name: `docs/${f}`, text: read(`docs/${f}`) }));

/** The table of CLI commands names every command `directory --help` lists. */
/** The first column of the table in the section "CLI: `directory`", command words only. */
function tableCommands(): string[] {
  const section = GETTING_STARTED.split(/^### CLI: `directory`$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([a-z]+(?: [a-z]+)?)/g)].map((m) => m[1] as string),
  );
}

describe('the CLI table of docs/getting-started.md', () => {
  it('lists every command of directory --help, in its order', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(tableCommands()).toEqual(names);
  });
});

/** The docs show the example files as they are, and they run as printed. */
describe('the README and docs examples', () => {
  const blockAfter = (marker: string) => {
    const at = GETTING_STARTED.indexOf(marker);
    expect(at).toBeGreaterThan(-1);
    return /```ts\n([\s\S]*?)```/.exec(GETTING_STARTED.slice(at))?.[1];
  };
  const file = (name: string) =>
    readFileSync(fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url)), 'utf8');

  it('show examples/sdk-example.mts and examples/trpc-example.mts as they are', () => {
    expect(blockAfter('`examples/sdk-example.mts` (below)')).toBe(file('sdk-example.mts'));
    expect(blockAfter('`examples/trpc-example.mts` (below)')).toBe(file('trpc-example.mts'));
  });

  it('need no key of their own and no server of their own: the first command’s server and data/api-key', () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(10);
    for (const { name, text } of [{ name: 'README.md', text: README }, ...DOCS]) {
      const outsideSearch = text.replace(/^## Browsing and search[\s\S]*?(?=^## |(?![\s\S]))/m, '');
      expect(outsideSearch, name).not.toMatch(
        /WEBHOOK_API_KEY=dev|API_KEY=dev|KEY=dev\b|WEBHOOK_API_KEY=k\b/,
      );
      expect(outsideSearch, name).not.toMatch(/DATABASE_URL=memory: pnpm start/);
    }
  });
});
