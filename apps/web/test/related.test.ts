// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, MISSING, screenshot, Watch } from './browser.ts';

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as unknown[];

/** The project page's related projects (GET /api/projects/{slug}/related), in both languages and both widths. */
describe('related projects on the project page', () => {
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

  it('lists them with what they share, leads to each, and fits 390 and 1280 px in Chinese and English', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const labels = { 'zh-CN': ['相关项目', '同一所有者'], 'en-US': ['Related projects', 'Same owner'] };
    for (const width of ['desktop', 'phone'] as const)
      for (const locale of ['zh-CN', 'en-US'] as const) {
        const context = await watch.context(browser, { locale, width });
        const page = await context.newPage();
        await page.goto(`${s.baseUrl}/projects/deepseek-v3`);
        const related = page.locator('section.related');
        await related.locator('.related-list > li').first().waitFor();
        const [title, sameOwner] = labels[locale];
        expect(await related.locator('h2').innerText()).toBe(title);
        const items = related.locator('.related-list > li');
        expect(await items.count()).toBe(6);
        const first = items.first();
        expect(await first.getAttribute('data-slug')).toBe('deepseek-r1');
        expect(await first.locator('.related-why').innerText()).toContain(
          `${sameOwner}\ngithub.com/deepseek-ai`,
        );
        await expectAccessible(page, `project with related projects, ${width} ${locale}`);
        const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect(wide[0], `${width} ${locale} scroll width`).toBeLessThanOrEqual(wide[1]!);
        await screenshot(page, `related-${width}-${locale.slice(0, 2)}`);
        if (width === 'desktop' && locale === 'en-US') {
          // a related project leads to its page, which lists its own
          await first.locator('a.related-name').click();
          await page.waitForURL(/\/projects\/deepseek-r1$/);
          await expect
            .poll(() => related.locator('.related-list > li').first().getAttribute('data-slug'), {
              timeout: 10_000,
            })
            .toBe('deepseek-v3');
        }
        await context.close();
      }
  }, 120_000);

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
