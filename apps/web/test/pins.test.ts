// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, MISSING, screenshot, Watch } from './browser.ts';

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as unknown[];

/**
 * Curated results in the console (docs/search.md#curated-results-pins): a curator pins a project for
 * a query on the Synonyms page, the preview shows it first, and the search page then lists it first;
 * in Chinese and English, at 390 and 1280 px, axe clean.
 */
describe('pins in the console', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: SAMPLE } })).status).toBe(200);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const labels = {
    'en-US': {
      query: 'Query',
      first: 'Shown first',
      add: 'Add a pin',
      save: 'Save pins',
      saved: 'Saved: searches use them now.',
      pinned: 'Pinned',
    },
    'zh-CN': {
      query: '查询',
      first: '最先显示',
      add: '添加置顶',
      save: '保存置顶',
      saved: '已保存：搜索已开始使用。',
      pinned: '置顶',
    },
  } as const;

  it('pins a project for a query: first in the preview and in search, 390 and 1280 px, zh and en', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    // what search shows first for 模型 without a pin, and a project it does not show first
    const before = await s.call('GET', `/api/projects?q=${encodeURIComponent('模型')}&limit=5`, {
      key: false,
    });
    const natural = before.json.projects[0].slug as string;
    const target = before.json.projects[3].slug as string;
    expect(target).not.toBe(natural);
    for (const width of ['desktop', 'phone'] as const)
      for (const locale of ['zh-CN', 'en-US'] as const) {
        await s.call('PUT', '/api/search/pins', { body: { pins: [] } });
        const l = labels[locale];
        const context = await watch.context(browser, { locale, width });
        const page = await context.newPage();
        await page.goto(`${s.baseUrl}/synonyms`);
        await page.locator('.key-prompt input[type="password"]').fill(s.key);
        await page.locator('.key-prompt button[type="submit"]').click();
        const editor = page.locator('section.pins-editor');
        await editor.getByRole('button', { name: l.add }).click();
        await editor.getByLabel(l.query).fill('模型');
        await editor.getByLabel(l.first).fill(target);
        const preview = page.locator('.pins-preview-list > li');
        await expect.poll(() => preview.first().getAttribute('data-slug'), { timeout: 10_000 }).toBe(target);
        expect(await preview.first().innerText()).toContain(l.pinned);
        await editor.getByRole('button', { name: l.save }).click();
        await editor.getByText(l.saved).waitFor({ timeout: 10_000 });
        expect((await s.call('GET', '/api/search/pins', { key: false })).json.pins).toEqual([
          { query: '模型', first: [target], hide: [] },
        ]);
        await expectAccessible(page, `pins editor, ${width} ${locale}`);
        const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect(wide[0], `${width} ${locale} scroll width`).toBeLessThanOrEqual(wide[1]!);
        await screenshot(page, `pins-${width}-${locale.slice(0, 2)}`);
        // the search page lists it first
        await page.goto(`${s.baseUrl}/?q=${encodeURIComponent('模型')}`);
        const first = page.locator('ol.result-list > li').first();
        await first.waitFor({ timeout: 10_000 });
        await expect
          .poll(async () => (await first.innerText()).includes(await nameOf(target, locale)), {
            timeout: 10_000,
          })
          .toBe(true);
        await expectAccessible(page, `search with a pin, ${width} ${locale}`);
        await context.close();
      }
    await s.call('PUT', '/api/search/pins', { body: { pins: [] } });
  }, 240_000);

  const nameOf = async (slug: string, locale: string) => {
    const p = (await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data;
    return locale === 'en-US' && p.nameEn ? p.nameEn : p.name;
  };

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
