// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, MISSING, Watch } from './browser.ts';

/**
 * A project whose content the renderer cannot take (the third review's 9,990 quote markers,
 * within the 10,000-character limit) is shown as its plain text, never a blank page
 * (docs/decisions.md#markdown-depth).
 */
describe('content nested too deep for markdown', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const content = `${'>'.repeat(9990)} x`;

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    const project = {
      name: '深嵌套示例',
      nameEn: 'Deeply Nested Example',
      description: 'Content that nests ten thousand quotes deep.',
      content,
      tags: [{ name: '示例', nameEn: 'Example' }],
      links: [{ type: 'CODEHOST', url: 'https://github.com/example-org/deeply-nested' }],
    };
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: [project] } });
    expect(r.json.created).toBe(1);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('shows the project page with the content as plain text', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const context = await watch.context(browser, { locale: 'en-US', width: 'desktop' });
    const page = await context.newPage();
    await page.goto(`${s.baseUrl}/projects/deeply-nested-example`);
    const plain = page.locator('.markdown-plain').first();
    await plain.waitFor();
    expect(await page.locator('h1').first().innerText()).toContain('Deeply Nested Example');
    expect((await plain.innerText()).trim()).toBe(content);
    await context.close();
    expect(watch.problems).toEqual([]);
  }, 120_000);
});
