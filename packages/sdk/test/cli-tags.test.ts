import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ postgres: false });
  const project = (n: number, tags: { name: string; nameEn?: string }[]) => ({
    name: `标签测试 ${n}`,
    nameEn: `Tag Test ${n}`,
    description: 'A project of the tag commands test.',
    tags,
    links: [{ type: 'CODEHOST', url: `https://github.com/tag-test/p${n}` }],
  });
  const r = await server.call('POST', '/api/webhook/projects', {
    body: {
      projects: [
        project(1, [{ name: 'LLM' }]),
        project(2, [{ name: '大模型', nameEn: 'LLM' }]),
        project(3, [{ name: 'LLM' }, { name: '开源', nameEn: 'Open Source' }]),
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const cli = (args: string[]) => runCli(server, args);

describe('directory tags rename|merge', () => {
  it('merges a duplicate tag, renames the one kept, and lists it with its alias', async () => {
    const merged = await cli(['tags', 'merge', 'llm-2', 'llm']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe('Merged llm-2 into LLM (llm): 1 project(s) changed; aliases: llm-2\n');
    const renamed = await cli(['tags', 'rename', 'llm', '--name', '大语言模型', '--name-en', 'LLM']);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toBe('Renamed llm: 大语言模型 / LLM (llm)\n');
    const listed = await cli(['tags', 'llm']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^SLUG +NAME +NAME \(EN\) +PROJECTS +ALIASES\nllm +大语言模型 +LLM +3 +llm-2\n/,
    );
    // the plain `tags` command still takes a query
    expect((await cli(['tags'])).stdout).toContain('open-source');
    // refusals: exit 1 with the service's reason
    const cycle = await cli(['tags', 'merge', 'llm', 'llm-2']);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain('cannot be merged into itself');
    const taken = await cli(['tags', 'rename', 'open-source', '--name', '大语言模型']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('merge the two tags instead');
    expect((await cli(['tags', 'rename', 'llm'])).code).toBe(2);
  });
});
