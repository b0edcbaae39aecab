import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.ts';

let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'pins-cli-'));

beforeAll(async () => {
  server = await startServer({ postgres: false });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(server, args);

describe('directory search pins (docs/search.md#curated-results-pins)', () => {
  it('sets the pins from a JSON file and lists them', async () => {
    const file = join(dir, 'pins.json');
    writeFileSync(
      file,
      JSON.stringify({ pins: [{ query: 'Qwen  Chat', first: ['qwen', 'qwen-chat'], hide: ['x'] }] }),
    );
    const set = await cli(['search', 'pins', '--set', file]);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Replaced: 1 pins');
    const listed = await cli(['search', 'pins']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/QUERY\s+FIRST\s+HIDE/);
    expect(listed.stdout).toMatch(/qwen chat\s+qwen, qwen-chat\s+x/);
    const json = await cli(['search', 'pins', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      success: true,
      pins: [{ query: 'qwen chat', first: ['qwen', 'qwen-chat'], hide: ['x'] }],
    });
  }, 60_000);

  it('refuses a file that is not pins, and leaves `search <q>` a search', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"sets": []}');
    const bad = await cli(['search', 'pins', '--set', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('pins');
    const search = await cli(['search', 'qwen', '--json']);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).success).toBe(true);
  }, 60_000);
});
