import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launch, Watch, type WIDTHS } from './browser.ts';

/*
 * The set-up of the web console's tests in Chromium (docs/getting-started.md#the-web-console): one
 * server with the sample projects and one browser for console.test.ts and the cases it registers
 * (console-queue.ts, console-curation.ts). The bindings below are set by useConsole's beforeAll.
 */

export const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as { name: string; nameEn?: string; tags: { name: string; nameEn?: string }[] }[];

export const QWEN = '通义千问';
/** expect.poll's default second is short on a busy 2-core machine. */
export const WAIT = { timeout: 10_000 };

/** A project whose content tries to run script in three ways, and has markdown to render. */
export const HOSTILE = {
  name: '安全渲染测试',
  nameEn: 'Safe rendering test',
  description: '一个内容里带有脚本的项目，用来检查页面不会执行它。',
  descriptionEn: 'A project whose content carries script, to check that the page never runs it.',
  content:
    '## 标题二\n\n**加粗** 与 `代码`\n\n- 第一项\n- 第二项\n\n<script>window.__pwned = "script"</script>\n\n' +
    '<img src="x" onerror="window.__pwned = \'img\'">\n\n[点我](javascript:window.__pwned=\'link\')',
  contentEn:
    '## Heading two\n\n**Bold** and a [link](https://example.org/docs)\n\n<b onmouseover="x()">raw</b>',
  tags: [{ name: '测试', nameEn: 'Testing' }],
  links: [
    { type: 'WEBSITE', url: 'https://example.org/safe-render', title: 'Home' },
    { type: 'CODEHOST', url: 'https://example.org/safe-render/code', title: 'Code' },
  ],
};

export let s: TestServer;
export let browser: Browser | undefined;
export const watch = new Watch();
export const api = { search: false, tags: false, queue: false, changes: false };
export let hostileSlug = '';

/** Registers, in the calling describe block, the beforeAll that sets all of it up and the afterAll that ends it. */
export function useConsole() {
  beforeAll(async () => {
    s = await startServer({ postgres: false });
    const upload = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [...SAMPLE, HOSTILE] },
    });
    expect(upload.status).toBe(200);
    const found = await s.call('GET', `/api/projects/${encodeURIComponent('safe-rendering-test')}`, {
      key: false,
    });
    hostileSlug = found.status === 200 ? found.json.data.slug : '';
    // The APIs beyond the ten endpoints that the console shows (search, queue, changes); each test that
    // needs one requires it.
    api.search = (await s.call('GET', '/api/projects?limit=1', { key: false })).status === 200;
    api.tags = (await s.call('GET', '/api/tags?limit=1', { key: false })).status === 200;
    api.queue = (await s.call('GET', '/api/discovery/stats')).status === 200;
    api.changes = (await s.call('GET', '/api/changes?limit=1')).status === 200;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });
}

export const open = async (path: string, options: { locale?: string; width?: keyof typeof WIDTHS } = {}) => {
  const context = await watch.context(browser!, options);
  const page = await context.newPage();
  await page.goto(s.baseUrl + path);
  return page;
};
export const close = (page: Page) => page.context().close();

/** Types into the search box and waits for the list the query produced. */
export const search = async (page: Page, q: string) => {
  await page.getByRole('searchbox').fill('');
  await page.getByRole('searchbox').pressSequentially(q, { delay: 20 });
  await page.locator(`ol.result-list[data-query="${q}"] > li`).first().waitFor();
};

export const enterKey = async (page: Page) => {
  await page.locator('.key-prompt input[type="password"]').fill(s.key);
  await page.locator('.key-prompt button[type="submit"]').click();
};
