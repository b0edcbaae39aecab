import { project, slugOf, uniqueUrl } from '@directory/server/test/helpers';
import { describe, expect, it } from 'vitest';
import { ndjson, useCliServer } from './cli-server.ts';

/**
 * `directory import` run as its own process against a test server (docs/getting-started.md#cli-directory):
 * batches and their progress lines, failed items, JSON and NDJSON from files or stdin, and the warning
 * of an update matched by slug only (docs/curation.md#updates-that-may-be-wrong).
 */

const { server, cli, file } = useCliServer();

describe('directory import', () => {
  it('imports 1,000 projects from NDJSON in batches of 100, then updates them all on re-import', async () => {
    const projects = Array.from({ length: 1000 }, () => project());
    const path = await file('thousand.ndjson', ndjson(projects));

    let started = performance.now();
    const first = await cli(['import', path]);
    const firstMs = performance.now() - started;
    expect(first.stderr.split('\n').filter(Boolean)).toHaveLength(10);
    expect(first.code).toBe(0);
    // one line per project with its slug, then the summary
    const out = first.stdout.split('\n');
    expect(out).toHaveLength(1002);
    expect(out.slice(0, 1000).every((line) => /^created {2}\S+$/.test(line))).toBe(true);
    expect(out.slice(1000)).toEqual(['1000 projects processed: 1000 created, 0 updated, 0 failed', '']);
    // Not a terminal: one plain line per batch, no carriage returns or escape codes.
    // Each line: the batch of how many, its own size, then the records done of the file's.
    expect(first.stderr).toMatch(
      /^batch 1 of 10: 100 items, 100 of 1000 done: 100 created, 0 updated, 0 failed\n/,
    );
    expect(first.stderr).toMatch(
      /\nbatch 2 of 10: 100 items, 200 of 1000 done: 200 created, 0 updated, 0 failed\n/,
    );
    expect(first.stderr).toMatch(
      /\nbatch 10 of 10: 100 items, 1000 of 1000 done: 1000 created, 0 updated, 0 failed\n$/,
    );
    expect(first.stderr).not.toContain('\r');
    expect(first.stderr).not.toContain('\x1b');

    for (const p of [projects[0]!, projects[499]!, projects[999]!]) {
      const res = await server.call('GET', `/api/projects/${slugOf(p)}`);
      expect(res.status).toBe(200);
      expect(res.json.data).toMatchObject({ name: p.name, description: p.description });
    }

    started = performance.now();
    const again = await cli(['import', path, '--json', '--quiet']);
    const againMs = performance.now() - started;
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toEqual({
      processed: 1000,
      created: 0,
      updated: 1000,
      failed: 0,
      errors: [],
      results: expect.any(Array),
    });
    expect(JSON.parse(again.stdout).results[999]).toMatchObject({ index: 999, action: 'updated' });
    console.log(`1,000-project import: ${Math.round(firstMs)} ms; re-import: ${Math.round(againMs)} ms`);
  }, 300_000);

  it('lists each failed item with its index, line and message, and still writes the valid ones', async () => {
    const good1 = project();
    const good2 = project();
    const badTags = project({ tags: [] });
    const url = uniqueUrl('twice');
    const twice = project({
      links: [
        { type: 'WEBSITE', url },
        { type: 'CODEHOST', url },
      ],
    });
    const text = [
      JSON.stringify(good1),
      '',
      '{not json',
      JSON.stringify(badTags),
      JSON.stringify(twice),
      '"a string"',
      JSON.stringify(good2),
    ].join('\n');
    const r = await cli(['import', await file('mixed.ndjson', text)]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      `created  ${slugOf(good1)}`,
      `created  ${slugOf(good2)}`,
      '6 projects processed: 2 created, 0 updated, 4 failed',
      'Failed:',
      expect.stringMatching(/^ {2}#1 \(line 3\): not valid JSON: /),
      `  #2 (line 4) ${JSON.stringify(badTags.name)}: tags: Too small: expected array to have >=1 items`,
      expect.stringMatching(new RegExp(`^  #3 \\(line 5\\) ".+": links\\.1\\.url: .*${url}.* listed twice$`)),
      '  #4 (line 6): expected a project object',
      '',
    ]);
    for (const p of [good1, good2]) {
      expect((await server.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(200);
    }
    for (const p of [badTags, twice]) {
      expect((await server.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
    }
  });

  it('reads a JSON array file; --json gives the summary with failure indexes', async () => {
    const bad = project({ description: 'short' });
    const items = [project(), bad, project()];
    const r = await cli(['import', await file('array.json', JSON.stringify(items, null, 2)), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      processed: 3,
      created: 2,
      updated: 0,
      failed: 1,
      errors: [{ index: 1, name: bad.name, error: expect.stringMatching(/^description: Too small/) }],
      results: [
        { index: 0, action: 'created', slug: slugOf(items[0]!) },
        { index: 2, action: 'created', slug: slugOf(items[2]!) },
      ],
    });
  });

  it("reads stdin for '-', telling JSON from NDJSON by the content", async () => {
    const items = [project(), project()];
    const wrapped = await cli(['import', '-', '--json'], {
      input: JSON.stringify({ projects: items }, null, 2),
    });
    expect(wrapped.code).toBe(0);
    expect(JSON.parse(wrapped.stdout)).toMatchObject({ processed: 2, created: 2, failed: 0 });
    expect(wrapped.stderr).toBe('batch 1 of 1: 2 items, 2 of 2 done: 2 created, 0 updated, 0 failed\n');

    const lines = await cli(['import', '-'], { input: `\r\n${ndjson(items).replaceAll('\n', '\r\n')}` });
    expect(lines).toMatchObject({
      code: 0,
      stdout: `updated  ${slugOf(items[0]!)}\nupdated  ${slugOf(items[1]!)}\n2 projects processed: 0 created, 2 updated, 0 failed\n`,
    });
  });

  it('shows the warning of an update found by slug only whose links differ (docs/curation.md#updates-that-may-be-wrong)', async () => {
    const p = project();
    const other = { ...p, links: [{ type: 'CODEHOST', url: `https://github.com/${slugOf(p)}/elsewhere` }] };
    const r = await cli(['import', '-'], { input: ndjson([p, other]) });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `created  ${slugOf(p)}`,
      `updated  ${slugOf(p)}  (warning: matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's)`,
      '2 projects processed: 1 created, 1 updated, 0 failed',
      '',
    ]);
    const json = await cli(['import', '-', '--json'], {
      input: ndjson([{ ...p, description: 'Back again.' }]),
    });
    expect(JSON.parse(json.stdout).results).toEqual([
      {
        index: 0,
        action: 'updated',
        slug: slugOf(p),
        warnings: ["matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's"],
      },
    ]);
  });
});
