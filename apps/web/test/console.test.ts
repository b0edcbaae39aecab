// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { describe, expect, it } from 'vitest';
import { expectAccessible, MISSING, screenshot } from './browser.ts';
import { curationCases } from './console-curation.ts';
import { queueCases } from './console-queue.ts';
import {
  api,
  browser,
  close,
  enterKey,
  hostileSlug,
  open,
  QWEN,
  SAMPLE,
  s,
  search,
  useConsole,
  WAIT,
  watch,
} from './console-setup.ts';

/**
 * The web console in Chromium (docs/getting-started.md#the-web-console): search in both languages,
 * tag facets, paging, the language switch, a project's markdown rendered without running its
 * script, and the tag list; then the queue and change feed (console-queue.ts) and the curation pages
 * (console-curation.ts); axe-core on every page at both widths, and no request off the origin. One
 * server and browser for all (console-setup.ts).
 */
describe('the web console in Chromium', () => {
  useConsole();

  it('finds 通义千问 first for 通义, tyqw, tongyi and qwen', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/', { locale: 'zh-CN' });
    for (const q of ['通义', 'tyqw', 'tongyi', 'qwen']) {
      await search(page, q);
      const first = page.locator(`ol.result-list[data-query="${q}"] > li`).first();
      expect(await first.locator('h2').innerText(), q).toBe(QWEN);
      // The URL holds the query, so the search can be shared.
      expect(new URL(page.url()).searchParams.get('q')).toBe(q);
    }
    // A shared URL shows the same search.
    const shared = await open('/?q=tyqw', { locale: 'zh-CN' });
    await shared.locator('ol.result-list[data-query="tyqw"] > li').first().waitFor();
    expect(await shared.locator('.result h2').first().innerText()).toBe(QWEN);
    expect(await shared.getByRole('searchbox').inputValue()).toBe('tyqw');
    await close(page);
    await close(shared);
  });

  it('narrows the results by a tag facet, to exactly its count', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/', { locale: 'en-US' });
    await page.locator('ol.result-list[data-query=""] > li').first().waitFor();
    const totalBefore = await page.locator('ol.result-list > li').count();
    // The first tag offered (the most used), with its count.
    const option = page.locator('.facet-tags .facet-option').first();
    const slug = (await option.getAttribute('data-tag'))!;
    const count = Number(await option.locator('.count').innerText());
    expect(count).toBeGreaterThan(0);
    await option.locator('input').check();
    await page.waitForURL((url) => url.searchParams.getAll('tag').includes(slug));
    await expect
      .poll(async () => page.locator('h1[aria-live]').innerText(), WAIT)
      .toMatch(new RegExp(`^${count} project`));
    // Every result shown has the tag, and there are `count` of them (loading more pages if needed).
    // (the button goes away once the last page is in: a click that finds it gone ends the loop)
    while (await page.getByRole('button', { name: 'Load more' }).isVisible())
      await page
        .getByRole('button', { name: 'Load more' })
        .click({ timeout: 5000 })
        .catch(() => undefined);
    await expect.poll(() => page.locator('ol.result-list > li').count(), WAIT).toBe(count);
    expect(count).toBeLessThan(SAMPLE.length + 1);
    expect(totalBefore).toBeGreaterThan(0);
    const reply = await s.call('GET', `/api/projects?tag=${slug}&limit=100`, { key: false });
    const slugs = await page
      .locator('ol.result-list > li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-slug')));
    expect(slugs.sort()).toEqual(reply.json.projects.map((p: { slug: string }) => p.slug).sort());
    await close(page);
  });

  it('reaches every result once by paging', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/?sort=name', { locale: 'en-US' });
    await page.locator('ol.result-list > li').first().waitFor();
    let pages = 1;
    const more = page.getByRole('button', { name: 'Load more' });
    while (await more.isVisible()) {
      const before = await page.locator('ol.result-list > li').count();
      await more.click();
      await expect.poll(() => page.locator('ol.result-list > li').count(), WAIT).toBeGreaterThan(before);
      pages += 1;
    }
    const slugs = await page
      .locator('ol.result-list > li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-slug')));
    expect(pages).toBeGreaterThan(1);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.length).toBe(SAMPLE.length + 1);
    await close(page);
  });

  it('switches every visible label between English and Chinese, and a reload keeps the choice', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/', { locale: 'en-US' });
    await page.locator('nav').waitFor();
    if (api.search) await page.locator('ol.result-list > li').first().waitFor();
    // The labels: navigation, headings, legends, form labels, buttons, options, the placeholder.
    const labels = () =>
      page.evaluate(() => {
        const texts = [
          ...document.querySelectorAll('nav a, h1, legend, label:not(.facet-option), button, option'),
        ]
          .filter((el) => !el.closest('.facet-tags'))
          .map((el) => (el as HTMLElement).innerText.trim());
        const box = document.querySelector('input[type="search"]') as HTMLInputElement | null;
        return [...texts, box?.placeholder ?? ''];
      });
    const english = await labels();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Switch to Chinese' }).click();
    await page.getByRole('link', { name: '搜索' }).waitFor();
    if (api.search) await page.locator('ol.result-list > li').first().waitFor();
    const chinese = await labels();
    expect(chinese.length).toBe(english.length);
    // Every label changed (the status facet's counts are numbers, the rest words).
    const unchanged = english.filter((text, i) => text === chinese[i] && !/^\d*$/.test(text));
    expect(unchanged).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    // No English word is left outside the data (project names and descriptions, tag names).
    const rest = await page.evaluate(() => {
      const clone = document.body.cloneNode(true) as HTMLElement;
      for (const el of clone.querySelectorAll('.result, .facet-tags, [lang="en"], noscript')) el.remove();
      return clone.innerText;
    });
    const words = (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !['API'].includes(w));
    expect(words).toEqual([]);
    await page.reload();
    await page.getByRole('link', { name: '搜索' }).waitFor();
    expect(await page.getByRole('button', { name: '切换到英文' }).isVisible()).toBe(true);
    expect(await labels()).toEqual(chinese);
    await close(page);
  });

  it('renders a project in both languages with its markdown, and never runs script from the content', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(hostileSlug).not.toBe('');
    const page = await open(`/projects/${hostileSlug}`, { locale: 'zh-CN' });
    const zh = page.locator('[data-column="zh"] .markdown');
    await zh.waitFor();
    expect(await zh.locator('h2').innerText()).toBe('标题二');
    expect(await zh.locator('strong').innerText()).toBe('加粗');
    expect(await zh.locator('li').count()).toBe(2);
    // The raw HTML is shown as text, not made into elements.
    expect(await zh.innerText()).toContain('<script>');
    expect(
      await page
        .locator('.markdown script, .markdown img, .markdown [onerror], .markdown [onmouseover]')
        .count(),
    ).toBe(0);
    const en = page.locator('[data-column="en"] .markdown');
    expect(await en.locator('h2').innerText()).toBe('Heading two');
    expect(await en.locator('a').getAttribute('href')).toBe('https://example.org/docs');
    // The javascript: link lost its target; clicking it runs nothing.
    const hostileLink = zh.locator('a', { hasText: '点我' });
    if ((await hostileLink.count()) > 0) {
      expect(await hostileLink.getAttribute('href')).toBeNull();
      await hostileLink.click();
    }
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    // Links by type; tags link to their search.
    expect(await page.locator('.link-group h3').allInnerTexts()).toEqual(['官网', '代码']);
    const tag = page.locator('.project-head .chip').first();
    expect(await tag.getAttribute('href')).toMatch(/^\/\?tag=/);
    await close(page);
  });

  it('lists every tag with its project count', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.tags, 'GET /api/tags').toBe(true);
    const page = await open('/tags', { locale: 'en-US' });
    await page.locator('.tag-cloud li').first().waitFor();
    const reply = await s.call('GET', '/api/tags?limit=100', { key: false });
    const shown = await page
      .locator('.tag-cloud li')
      .evaluateAll((items) =>
        items.map((i) => [i.getAttribute('data-tag'), i.querySelector('.count')?.textContent]),
      );
    expect(shown).toEqual(
      reply.json.tags.map((t: { slug: string; projectCount: number }) => [
        t.slug,
        `${t.projectCount} ${t.projectCount === 1 ? 'project' : 'projects'}`,
      ]),
    );
    await close(page);
  });

  queueCases();
  curationCases();

  it('passes axe-core on every page at both widths, and takes their screenshots', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const pages: [string, string, boolean][] = [
      ['search', '/?q=%E6%A8%A1%E5%9E%8B', false],
      ['project', `/projects/${hostileSlug}`, false],
      ['tags', '/tags', false],
      ['queue', '/queue', true],
      ['changes', '/changes', true],
      ['duplicates', '/duplicates', true],
      ['deleted', '/deleted', true],
      ['synonyms', '/synonyms', true],
      ['history', `/projects/${hostileSlug}?tab=history`, false],
      ['key-prompt', '/queue', false],
      ['edit', `/projects/${hostileSlug}/edit`, true],
      ['webhooks', '/webhooks', true],
    ];
    for (const width of ['desktop', 'phone'] as const) {
      for (const locale of ['zh-CN', 'en-US']) {
        const context = await watch.context(browser, { locale, width });
        const page = await context.newPage();
        let keyed = false;
        for (const [name, path, needsKey] of pages) {
          await page.goto(s.baseUrl + path);
          if (needsKey && !keyed) {
            await enterKey(page);
            keyed = true;
          }
          if (!needsKey && keyed) {
            await page.evaluate(() => sessionStorage.clear());
            keyed = false;
            await page.reload();
          }
          await page.locator('main').waitFor();
          await page.waitForLoadState('networkidle', { timeout: 2000 }).catch(() => {});
          await page.waitForTimeout(150);
          await expectAccessible(page, `${name} ${width} ${locale}`);
          // nothing wider than the screen (390 and 1280 px)
          const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
          expect(wide[0], `${name} ${width} ${locale} scroll width`).toBeLessThanOrEqual(wide[1]!);
          await screenshot(page, `${name}-${width}-${locale.slice(0, 2)}`);
        }
        await context.close();
      }
    }
    // twelve pages × two widths × two languages: minutes on a busy machine (159 s seen)
  }, 300_000);

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.requests.length).toBeGreaterThan(10);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
